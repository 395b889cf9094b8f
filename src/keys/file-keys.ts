// Signing keys kept in a JWKS file, possibly on a volume shared by several instances that start at
// the same time. The file is never written in place: it is created exclusively (first writer wins,
// the others adopt its keys), and a missing algorithm, a rotation or a retirement rewrites it under a
// lock file, so that no instance ever signs with a key the file, hence the published JWKS, does not hold.
// Each key carries its schedule as two extra members, `created_at` and `activates_at` (RFC 7517 lets
// a JWK hold members its readers ignore); a retired key is removed from the file.
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateSigningKey, withRs256, type PrivateJwk, type SigningAlgorithm } from './generate.ts';
import type { SigningKey } from './key-schedule.ts';

/** A key as the file holds it. */
type StoredJwk = PrivateJwk & { created_at?: string; activates_at?: string };

/** A lock older than this was left by an instance that died while adding a key. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 60_000;

export async function loadKeysFromFile(file: string, algorithms: SigningAlgorithm[]): Promise<SigningKey[]> {
  const wanted = withRs256(algorithms);
  const existing = await readKeys(file);
  if (existing && wanted.every((alg) => existing.some((k) => k.alg === alg))) return existing.map(toKey);
  await mkdir(dirname(file), { recursive: true });
  if (!existing) {
    const created = wanted.map(newKey);
    if (await createExclusive(file, created)) return created.map(toKey);
    // Another instance created the file first: its keys are the published ones.
    return loadKeysFromFile(file, algorithms);
  }
  return rewrite(file, (keys) => {
    // Re-read under the lock: another instance may have added the algorithm meanwhile.
    const missing = wanted.filter((alg) => !keys.some((k) => k.alg === alg));
    return missing.length ? [...keys, ...missing.map(newKey)] : undefined;
  });
}

/** Every key of the file as it is now (a missing file has none). Reads, never writes. */
export async function readFileKeys(file: string): Promise<SigningKey[]> {
  return ((await readKeys(file)) ?? []).map(toKey);
}

/** Adds a key to the file, published from now on and signing from `activatesAt` (now when unset). */
export async function addFileKey(file: string, jwk: PrivateJwk, activatesAt: Date | undefined): Promise<SigningKey> {
  const added = { ...newKeyFrom(jwk), ...(activatesAt ? { activates_at: activatesAt.toISOString() } : {}) };
  await mkdir(dirname(file), { recursive: true });
  await rewrite(file, (keys) => [...keys, added]);
  return toKey(added);
}

/** Removes a key from the file: it leaves the JWKS, and its private part is gone with it. */
export async function removeFileKey(file: string, kid: string): Promise<void> {
  await rewrite(file, (keys) => (keys.some((k) => k.kid === kid) ? keys.filter((k) => k.kid !== kid) : undefined));
}

const newKeyFrom = (jwk: PrivateJwk): StoredJwk => ({ ...jwk, created_at: new Date().toISOString() });
const newKey = (alg: SigningAlgorithm): StoredJwk => newKeyFrom(generateSigningKey(alg));

function toKey(stored: StoredJwk): SigningKey {
  const { created_at, activates_at, ...jwk } = stored;
  return {
    kid: jwk.kid,
    alg: jwk.alg,
    jwk,
    createdAt: created_at ? new Date(created_at) : undefined,
    activatesAt: activates_at ? new Date(activates_at) : undefined,
  };
}

/**
 * Changes the file under its lock: `change` gets the keys on disk and returns the new list, or
 * undefined to leave the file as it is. Returns the keys on disk afterwards.
 */
async function rewrite(file: string, change: (keys: StoredJwk[]) => StoredJwk[] | undefined): Promise<SigningKey[]> {
  return withLock(`${file}.lock`, async () => {
    const keys = (await readKeys(file)) ?? [];
    const changed = change(keys);
    if (!changed) return keys.map(toKey);
    const temp = await writeTemp(file, changed);
    await rename(temp, file); // atomic: readers see the old file or the new one, never half of it
    return changed.map(toKey);
  });
}

async function readKeys(file: string): Promise<StoredJwk[] | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return (JSON.parse(text) as { keys: StoredJwk[] }).keys;
  } catch (cause) {
    throw new Error(`the signing keys file ${file} is not a JWKS: ${(cause as Error).message}`, { cause });
  }
}

/** Writes `file` only if it does not exist yet; false when another writer got there first. */
async function createExclusive(file: string, keys: StoredJwk[]): Promise<boolean> {
  const temp = await writeTemp(file, keys);
  try {
    await link(temp, file); // fails with EEXIST rather than replace, and the file appears complete
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => {});
  }
}

// In the target's directory, so that link and rename stay on one file system.
async function writeTemp(file: string, keys: StoredJwk[]): Promise<string> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return temp;
}

async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) await unlink(lock).catch(() => {});
    else if (Date.now() > deadline) throw new Error(`the signing keys file is locked by ${lock}; remove it if no instance is starting`);
    else await sleep(25 + Math.random() * 50);
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => {});
  }
}

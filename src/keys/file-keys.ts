// Signing keys kept in a JWKS file, possibly on a volume shared by several instances that start at
// the same time. The file is never written in place: it is created exclusively (first writer wins,
// the others adopt its keys), and a missing algorithm is added under a lock file, so that no instance
// ever signs with a key the file, hence the published JWKS, does not hold.
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateSigningKey, withRs256, type PrivateJwk, type SigningAlgorithm } from './generate.ts';

/** A lock older than this was left by an instance that died while adding a key. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 60_000;

export async function loadKeysFromFile(file: string, algorithms: SigningAlgorithm[]): Promise<PrivateJwk[]> {
  const wanted = withRs256(algorithms);
  const existing = await readKeys(file);
  if (existing && wanted.every((alg) => existing.some((k) => k.alg === alg))) return existing;
  await mkdir(dirname(file), { recursive: true });
  if (!existing) {
    const created = wanted.map(generateSigningKey);
    if (await createExclusive(file, created)) return created;
    // Another instance created the file first: its keys are the published ones.
    return loadKeysFromFile(file, algorithms);
  }
  return withLock(`${file}.lock`, async () => {
    // Re-read under the lock: another instance may have added the algorithm meanwhile.
    const keys = (await readKeys(file)) ?? [];
    const missing = wanted.filter((alg) => !keys.some((k) => k.alg === alg));
    if (!missing.length) return keys;
    const merged = [...keys, ...missing.map(generateSigningKey)];
    const temp = await writeTemp(file, merged);
    await rename(temp, file); // atomic: readers see the old file or the new one, never half of it
    return merged;
  });
}

async function readKeys(file: string): Promise<PrivateJwk[] | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return (JSON.parse(text) as { keys: PrivateJwk[] }).keys;
  } catch (cause) {
    throw new Error(`the signing keys file ${file} is not a JWKS: ${(cause as Error).message}`, { cause });
  }
}

/** Writes `file` only if it does not exist yet; false when another writer got there first. */
async function createExclusive(file: string, keys: PrivateJwk[]): Promise<boolean> {
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
async function writeTemp(file: string, keys: PrivateJwk[]): Promise<string> {
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
    const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
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

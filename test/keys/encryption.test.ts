// Private signing keys are encrypted at rest in the database when secrets.keyEncryptionKey is set,
// on both stores: the table holds no private component, the published kids survive a restart, a
// wrong key stops the start naming the setting, and keys stored in clear are encrypted at start.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../adapters/storage.ts';
import type { SignInStorageConfig } from '../../adapters/storage-config.ts';
import { parseConfig } from '../../src/config/load.ts';
import { deriveKeyEncryptionKey, openJwk, sealJwk } from '../../src/keys/encryption.ts';
import { generateSigningKey } from '../../src/keys/signing-keys.ts';
import { createSignInService } from '../../src/service.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { startTestService } from '../support/service.ts';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];
const secret = () => randomBytes(32).toString('base64url');
const fixedSecrets = { cookieKeys: [secret()], pairwiseSalt: secret() };

interface Backend {
  storageConfig: SignInStorageConfig;
  /** One "instance": its own pool on Postgres; on PGlite the same in-memory database each time. */
  open(): Promise<Storage>;
  release(storage: Storage): Promise<void>;
  cleanup(): Promise<void>;
}

async function pgliteBackend(): Promise<Backend> {
  const storageConfig: SignInStorageConfig = { kind: 'embedded', dataDir: 'memory://' };
  const shared = await openStorage(storageConfig);
  return { storageConfig, open: async () => shared, release: async () => {}, cleanup: () => shared.close() };
}

async function postgresBackend(): Promise<Backend> {
  const pg: FreshPostgres = await freshPostgres();
  const storageConfig = parseConfig({
    issuer: 'http://x',
    secrets: fixedSecrets,
    storage: { kind: 'postgres', postgres: { url: pg.url } },
  }).storage;
  return { storageConfig, open: () => openStorage(storageConfig), release: (s) => s.close(), cleanup: () => pg.drop() };
}

// The tests of one store share its database and run in order, as restarts of one installation would.
describe.each([
  ['PGlite', pgliteBackend],
  ['Postgres', postgresBackend],
])('signing keys encrypted at rest on %s', (_name, makeBackend) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await makeBackend();
  });
  afterAll(() => backend.cleanup());

  const rows = async (storage: Storage) =>
    (
      await storage.db.query<{ kid: string; jwk: Record<string, unknown>; text: string }>(
        'SELECT kid, jwk, jwk::text AS text FROM signing_keys ORDER BY kid',
      )
    ).rows;

  /** Starts an instance on the backend, gives its JWKS kids and the stored rows, and stops it. */
  async function run(keyEncryptionKey: string | undefined) {
    const storage = await backend.open();
    try {
      const secrets = { ...fixedSecrets, ...(keyEncryptionKey ? { keyEncryptionKey } : {}) };
      const svc = await startTestService(
        { secrets, storage: backend.storageConfig, keys: { algorithms: ['RS256', 'ES256'] } },
        { storage },
      );
      const jwks = (await (await fetch(`${svc.url}/oauth/jwks`)).json()) as { keys: Array<{ kid: string }> };
      await svc.stop();
      return { kids: jwks.keys.map((k) => k.kid).sort(), rows: await rows(storage) };
    } finally {
      await backend.release(storage);
    }
  }

  async function startFailure(keyEncryptionKey: string | undefined): Promise<Error> {
    const storage = await backend.open();
    try {
      const secrets = { ...fixedSecrets, ...(keyEncryptionKey ? { keyEncryptionKey } : {}) };
      const config = parseConfig({ issuer: 'http://127.0.0.1', secrets, storage: backend.storageConfig });
      return await createSignInService(config, { storage, sweepIntervalSeconds: 0 }).then(
        () => expect.fail('the service started'),
        (error: Error) => error,
      );
    } finally {
      await backend.release(storage);
    }
  }

  const key = secret();

  it('keeps keys written in clear readable, then encrypts them at the first start with a key', async () => {
    const clear = await run(undefined);
    expect(clear.rows.length).toBe(2);
    expect(clear.rows.every((r) => typeof r.jwk.d === 'string')).toBe(true);

    const encrypted = await run(key);
    expect(encrypted.kids).toEqual(clear.kids);
    expect(encrypted.rows.map((r) => r.kid)).toEqual(clear.rows.map((r) => r.kid));
    for (const row of encrypted.rows) {
      expect(Object.keys(row.jwk).sort()).toEqual(['alg', 'ct', 'iv', 'tag', 'v']);
      expect(row.jwk).toMatchObject({ v: 1, alg: 'A256GCM' });
      for (const member of PRIVATE_MEMBERS) expect(row.text).not.toContain(`"${member}"`);
      // Nor any private value, under whatever name.
      const before = clear.rows.find((r) => r.kid === row.kid)!.jwk;
      for (const member of PRIVATE_MEMBERS) if (typeof before[member] === 'string') expect(row.text).not.toContain(before[member]);
    }
  }, 60_000);

  it('serves the same kids after a restart, and never stores a private component', async () => {
    const first = await run(key);
    const second = await run(key);
    expect(second.kids).toEqual(first.kids);
    expect(second.rows).toEqual(first.rows); // already encrypted: left as it is
    for (const row of second.rows) for (const member of PRIVATE_MEMBERS) expect(row.jwk[member]).toBeUndefined();
  }, 60_000);

  it('refuses to start with a wrong key or none, naming the setting and not the key', async () => {
    const before = (await run(key)).rows;
    const wrong = secret();
    const error = await startFailure(wrong);
    expect(error.message).toContain('secrets.keyEncryptionKey');
    expect(error.message).not.toContain(wrong);
    expect(error.message).not.toContain(key);

    expect((await startFailure(undefined)).message).toMatch(/secrets\.keyEncryptionKey: the signing keys in the database are encrypted/);
    // Neither failure touched the rows: the right key still reads them.
    expect((await run(key)).rows).toEqual(before);
  }, 60_000);

  it('generates new keys encrypted on an empty table', async () => {
    const storage = await backend.open();
    try {
      await storage.db.query('DELETE FROM signing_keys');
    } finally {
      await backend.release(storage);
    }
    const fresh = await run(key);
    expect(fresh.rows.length).toBe(2);
    expect(fresh.rows.every((r) => r.jwk.alg === 'A256GCM' && r.jwk.d === undefined)).toBe(true);
  }, 60_000);
});

describe('sealed JWK', () => {
  const kek = deriveKeyEncryptionKey('k'.repeat(40));
  const jwk = generateSigningKey('ES256');

  it('round-trips, with a fresh IV each time', () => {
    const a = sealJwk(jwk, kek);
    const b = sealJwk(jwk, kek);
    expect(a.iv).not.toBe(b.iv);
    expect(Buffer.from(a.iv, 'base64url').length).toBe(12);
    expect(openJwk(a, jwk.kid, kek)).toEqual(jwk);
  });

  it('binds the ciphertext to its kid and to the key', () => {
    const sealed = sealJwk(jwk, kek);
    expect(() => openJwk(sealed, 'another-kid', kek)).toThrow();
    expect(() => openJwk(sealed, jwk.kid, deriveKeyEncryptionKey('x'.repeat(40)))).toThrow();
    expect(() => openJwk({ ...sealed, tag: sealed.tag.slice(0, 8) }, jwk.kid, kek)).toThrow();
  });
});

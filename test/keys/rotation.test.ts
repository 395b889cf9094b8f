// Signing-key rotation as a relying party lives it: a rotated key appears in the JWKS before it signs
// anything, tokens signed before the rotation keep verifying, ID tokens carry the new kid once its
// time has come, and a retired key leaves the JWKS. On the database (the default) and a JWKS file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keySource, retireSigningKey, rotateSigningKeys } from '../../src/keys/signing-keys.ts';
import { cli, randomSecret } from '../cli/support.ts';
import { signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { fetchJwks, kidOf, verifiesAgainst } from './jws.ts';

const HOUR = 3600_000;
const dir = mkdtempSync(join(tmpdir(), 'signin-rotation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh ID token for the same user and application. */
async function idToken(
  svc: TestService,
  user: { email: string; password: string },
  client: Awaited<ReturnType<TestService['createClient']>>,
) {
  return (await signIn(svc.url, await relyingParty(svc.url, client), user)).tokens.id_token!;
}

describe('key rotation on the database', () => {
  it('publishes the new key at once, signs with it after the delay, and retires the old one after the ID-token lifetime', async () => {
    // The schedule follows this clock; the engine and the relying party keep the real time.
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const svc = await startTestService({}, { clock: now });
    try {
      const user = await svc.createUser();
      const client = await svc.createClient();
      const before = await idToken(svc, user, client);
      const oldKid = kidOf(before);

      const source = keySource(svc.config, svc.service.context.db);
      const [added] = await rotateSigningKeys(source, { now: now(), delaySeconds: 3600 });
      expect(added.alg).toBe('RS256');
      await svc.service.refreshSigningKeys();

      // Published at once, but the old key still signs.
      const published = await fetchJwks(svc.url);
      expect(published.keys.map((k) => k.kid).sort()).toEqual([oldKid, added.kid].sort());
      expect(published.keys.every((k) => k.d === undefined)).toBe(true);
      const during = await idToken(svc, user, client);
      expect(kidOf(during)).toBe(oldKid);

      // The delay has passed: new ID tokens carry the new kid; the old tokens still verify.
      offset = HOUR + 1000;
      await svc.service.refreshSigningKeys();
      const after = await idToken(svc, user, client);
      expect(kidOf(after)).toBe(added.kid);
      const jwks = await fetchJwks(svc.url);
      for (const token of [before, during, after]) expect(verifiesAgainst(token, jwks)).toBe(true);

      // The old key may go once the last ID token it signed has expired (ttl.idToken after it stopped).
      const ttl = svc.config.ttl.idToken;
      await expect(retireSigningKey(source, oldKid, { now: now(), idTokenTtlSeconds: ttl })).rejects.toThrow(/may still be in use until/);
      await expect(retireSigningKey(source, added.kid, { now: now(), idTokenTtlSeconds: ttl })).rejects.toThrow(
        /signs the new RS256 tokens/,
      );
      offset += ttl * 1000;
      await retireSigningKey(source, oldKid, { now: now(), idTokenTtlSeconds: ttl });
      await svc.service.refreshSigningKeys();
      expect((await fetchJwks(svc.url)).keys.map((k) => k.kid)).toEqual([added.kid]);
      expect(verifiesAgainst(before, await fetchJwks(svc.url))).toBe(false);
      expect(kidOf(await idToken(svc, user, client))).toBe(added.kid);

      // The retired key's row keeps its public part only.
      const row = await svc.service.context.db.query<{ jwk: Record<string, unknown> }>('SELECT jwk FROM signing_keys WHERE kid = $1', [
        oldKid,
      ]);
      expect(Object.keys(row.rows[0].jwk)).not.toContain('d');
    } finally {
      await svc.stop();
    }
  }, 180_000);
});

describe('key rotation on a JWKS file, with the CLI', () => {
  it('rotates, lists the states, refuses then forces the retirement of the old key', async () => {
    const file = join(dir, 'jwks.json');
    const secrets = { cookieKeys: [randomSecret()], pairwiseSalt: randomSecret() };
    const svc = await startTestService({ secrets, keys: { source: 'file', file, algorithms: ['RS256'] } });
    const config = join(dir, 'file-keys.yaml');
    writeFileSync(
      config,
      [
        `issuer: ${svc.url}`,
        'secrets:',
        `  cookieKeys: ["${secrets.cookieKeys[0]}"]`,
        `  pairwiseSalt: "${secrets.pairwiseSalt}"`,
        'storage: { kind: embedded, dataDir: "memory://" }',
        'keys:',
        '  source: file',
        `  file: ${JSON.stringify(file)}`,
        '  algorithms: [RS256]',
      ].join('\n'),
    );
    try {
      const user = await svc.createUser();
      const client = await svc.createClient();
      const before = await idToken(svc, user, client);
      const oldKid = kidOf(before);

      const rotated = await cli(['keys', 'rotate', '--config', config, '--delay', '0', '--json']);
      expect(rotated.code, rotated.stderr).toBe(0);
      const [{ kid: newKid }] = JSON.parse(rotated.stdout) as Array<{ kid: string }>;
      // The operator's security log says which key was added, by whom.
      expect(rotated.log).toEqual([expect.objectContaining({ event: 'signing_key.rotated', key_id: newKid, alg: 'RS256', source: 'cli' })]);
      await svc.service.refreshSigningKeys();
      expect(kidOf(await idToken(svc, user, client))).toBe(newKid);
      expect(verifiesAgainst(before, await fetchJwks(svc.url))).toBe(true);

      const listed = JSON.parse((await cli(['keys', 'list', '--config', config, '--json'])).stdout) as Array<{
        kid: string;
        state: string;
      }>;
      expect(listed.map(({ kid, state }) => ({ kid, state }))).toEqual([
        { kid: newKid, state: 'active' },
        { kid: oldKid, state: 'previous' },
      ]);

      const early = await cli(['keys', 'retire', oldKid, '--config', config]);
      expect(early.code).toBe(1);
      expect(early.stderr).toMatch(/may still be in use until .*--force/);
      expect((await cli(['keys', 'retire', newKid, '--config', config])).code).toBe(1);
      const forced = await cli(['keys', 'retire', oldKid, '--force', '--config', config]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.log).toEqual([
        expect.objectContaining({ event: 'signing_key.retired', key_id: oldKid, reason: 'forced', source: 'cli' }),
      ]);
      expect(early.log).toEqual([]);
      await svc.service.refreshSigningKeys();
      expect((await fetchJwks(svc.url)).keys.map((k) => k.kid)).toEqual([newKid]);
      expect((await cli(['keys', 'retire', 'no-such-kid', '--config', config])).code).toBe(1);
      expect((await cli(['keys', 'rotate', '--config', config, '--alg', 'HS256'])).code).toBe(2);
    } finally {
      await svc.stop();
    }
  }, 180_000);
});

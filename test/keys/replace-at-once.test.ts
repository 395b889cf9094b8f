// `signin keys rotate --now`: a leaked key replaced in one command, whatever rotation is scheduled. The new
// key signs at once, a key that waited to sign is cancelled, and with --retire-old the replaced key leaves
// the JWKS at once, so the ID tokens it signed stop verifying. On the database (Postgres) and a JWKS file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, randomSecret } from '../cli/support.ts';
import { freshPostgres } from '../support/databases.ts';
import { signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { fetchJwks, kidOf, verifiesAgainst } from './jws.ts';

const dir = mkdtempSync(join(tmpdir(), 'signin-replace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function idToken(
  svc: TestService,
  user: { email: string; password: string },
  client: Awaited<ReturnType<TestService['createClient']>>,
) {
  return (await signIn(svc.url, await relyingParty(svc.url, client), user)).tokens.id_token!;
}

/** The config file the CLI reads: the same secrets and keys as the running service. */
function configFile(name: string, svc: TestService, lines: string[]): string {
  const path = join(dir, name);
  const { secrets } = svc.config;
  writeFileSync(
    path,
    [
      `issuer: ${svc.url}`,
      'secrets:',
      `  cookieKeys: ["${secrets.cookieKeys[0]}"]`,
      `  pairwiseSalt: "${secrets.pairwiseSalt}"`,
      ...(secrets.keyEncryptionKey ? [`  keyEncryptionKey: "${secrets.keyEncryptionKey}"`] : []),
      ...lines,
    ].join('\n'),
  );
  return path;
}

type Listed = Array<{ kid: string; state: string }>;
const listKeys = async (config: string): Promise<Listed> =>
  (JSON.parse((await cli(['keys', 'list', '--config', config, '--json'])).stdout) as Listed).map(({ kid, state }) => ({ kid, state }));

describe('rotate --now --retire-old on the database', () => {
  it('replaces a key in one command over a scheduled rotation, and the old key’s tokens stop verifying', async () => {
    const pg = await freshPostgres();
    const svc = await startTestService({
      storage: { kind: 'postgres', postgres: { url: pg.url } },
      secrets: { cookieKeys: [randomSecret()], pairwiseSalt: randomSecret(), keyEncryptionKey: randomSecret() },
    });
    const config = configFile('database.yaml', svc, ['storage:', '  kind: postgres', '  postgres:', `    url: ${JSON.stringify(pg.url)}`]);
    try {
      const user = await svc.createUser();
      const client = await svc.createClient();
      const before = await idToken(svc, user, client);
      const oldKid = kidOf(before);

      // A routine rotation is scheduled: its key waits a day before signing.
      const scheduled = await cli(['keys', 'rotate', '--config', config, '--json']);
      expect(scheduled.code, scheduled.stderr).toBe(0);
      const [{ kid: waitingKid }] = JSON.parse(scheduled.stdout) as Array<{ kid: string }>;
      // A second plain rotation is refused, and says how to replace the key at once.
      const again = await cli(['keys', 'rotate', '--config', config]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already waits to sign.*--now/);

      // The key leaked: one command replaces it.
      const replaced = await cli(['keys', 'rotate', '--now', '--retire-old', '--config', config, '--json']);
      expect(replaced.code, replaced.stderr).toBe(0);
      const out = JSON.parse(replaced.stdout) as {
        added: Array<{ kid: string; alg: string }>;
        cancelled: Array<{ kid: string }>;
        retired: Array<{ kid: string }>;
      };
      expect(out.added).toHaveLength(1);
      const newKid = out.added[0].kid;
      expect(out.cancelled.map((k) => k.kid)).toEqual([waitingKid]);
      expect(out.retired.map((k) => k.kid)).toEqual([oldKid]);
      expect(replaced.log).toEqual([
        expect.objectContaining({ event: 'signing_key.rotated', key_id: newKid, alg: 'RS256', reason: 'at_once', source: 'cli' }),
        expect.objectContaining({ event: 'signing_key.retired', key_id: waitingKid, reason: 'rotation_cancelled', source: 'cli' }),
        expect.objectContaining({ event: 'signing_key.retired', key_id: oldKid, reason: 'forced', source: 'cli' }),
      ]);

      // What a relying party sees: only the new key is published, it signs, and the old tokens fail.
      await svc.service.refreshSigningKeys();
      const jwks = await fetchJwks(svc.url);
      expect(jwks.keys.map((k) => k.kid)).toEqual([newKid]);
      expect(verifiesAgainst(before, jwks)).toBe(false);
      const after = await idToken(svc, user, client);
      expect(kidOf(after)).toBe(newKid);
      expect(verifiesAgainst(after, jwks)).toBe(true);
      expect(await listKeys(config)).toEqual(
        expect.arrayContaining([
          { kid: newKid, state: 'active' },
          { kid: waitingKid, state: 'retired' },
          { kid: oldKid, state: 'retired' },
        ]),
      );
    } finally {
      await svc.stop();
      await pg.drop();
    }
  }, 180_000);
});

describe('rotate --now on a JWKS file', () => {
  it('signs with the new key at once and cancels the scheduled one; the old key still verifies its tokens', async () => {
    const file = join(dir, 'jwks.json');
    const svc = await startTestService({
      secrets: { cookieKeys: [randomSecret()], pairwiseSalt: randomSecret() },
      keys: { source: 'file', file, algorithms: ['RS256'] },
    });
    const config = configFile('file.yaml', svc, [
      'storage: { kind: embedded, dataDir: "memory://" }',
      'keys:',
      '  source: file',
      `  file: ${JSON.stringify(file)}`,
      '  algorithms: [RS256]',
    ]);
    try {
      const user = await svc.createUser();
      const client = await svc.createClient();
      const before = await idToken(svc, user, client);
      const oldKid = kidOf(before);
      expect((await cli(['keys', 'rotate', '--config', config, '--delay', '3600'])).code).toBe(0);
      const waitingKid = (await listKeys(config)).find((k) => k.state === 'next')!.kid;

      const replaced = await cli(['keys', 'rotate', '--now', '--config', config]);
      expect(replaced.code, replaced.stderr).toBe(0);
      expect(replaced.stdout).toMatch(/signing from now on/);
      expect(replaced.stdout).toContain(`cancelled RS256 key ${waitingKid}`);
      expect(replaced.stdout).toMatch(/signin keys retire KID --force/);

      await svc.service.refreshSigningKeys();
      const newKid = (await listKeys(config)).find((k) => k.state === 'active')!.kid;
      // A file drops a retired key altogether.
      expect(await listKeys(config)).toEqual([
        { kid: newKid, state: 'active' },
        { kid: oldKid, state: 'previous' },
      ]);
      expect(kidOf(await idToken(svc, user, client))).toBe(newKid);
      const jwks = await fetchJwks(svc.url);
      expect(jwks.keys.map((k) => k.kid).sort()).toEqual([newKid, oldKid].sort());
      expect(verifiesAgainst(before, jwks)).toBe(true);
    } finally {
      await svc.stop();
    }
  }, 180_000);

  it('refuses --retire-old without --now and --now with --delay, and says in the help what --retire-old does', async () => {
    const retireAlone = await cli(['keys', 'rotate', '--retire-old']);
    expect(retireAlone.code).toBe(2);
    expect(retireAlone.stderr).toMatch(/--retire-old goes with --now/);
    const both = await cli(['keys', 'rotate', '--now', '--delay', '0']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--now and --delay/);
    const help = await cli(['keys', '--help']);
    expect(help.stdout).toMatch(/--retire-old/);
    expect(help.stdout).toMatch(/ID tokens it signed stop verifying/);
  });
});

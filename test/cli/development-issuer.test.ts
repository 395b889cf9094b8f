// Development defaults that agree with each other: the issuer follows the port on this machine, `init`
// names the start command a clone or an installed package needs, and a development store made with
// other secrets is explained (it may be deleted) instead of refused with only "does not decrypt".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../adapters/sql/migrate.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { loadKeysFromDatabase } from '../../src/keys/database-keys.ts';
import { issuerForPort } from '../../src/config/dev-issuer.ts';
import { startCommand } from '../../src/cli/start-command.ts';
import { cli, randomSecret, workspace, type Workspace } from './support.ts';

describe('the development issuer follows the port', () => {
  const dev = { issuer: 'http://localhost:3000', port: 3000, production: false };

  it('moves a loopback issuer that names the configured port, path kept', () => {
    expect(issuerForPort(dev, 4900)).toBe('http://localhost:4900');
    expect(issuerForPort({ ...dev, issuer: 'http://127.0.0.1:3000/auth' }, 4900)).toBe('http://127.0.0.1:4900/auth');
    expect(issuerForPort(dev, 3000)).toBe('http://localhost:3000');
  });

  it('keeps a public issuer, a production one, and one whose port is not the listener’s (a proxy)', () => {
    expect(issuerForPort({ ...dev, issuer: 'https://login.example.org' }, 4900)).toBe('https://login.example.org');
    expect(issuerForPort({ ...dev, production: true }, 4900)).toBe('http://localhost:3000');
    expect(issuerForPort({ ...dev, issuer: 'http://localhost:8080' }, 4900)).toBe('http://localhost:8080');
  });
});

describe('signin init', () => {
  let ws: Workspace | undefined;
  afterEach(() => ws?.remove());

  it('names `npm start` in a clone and `signin serve` in the installed package', () => {
    expect(startCommand('signin.yaml', true)).toBe('npm start');
    expect(startCommand('signin.yaml', false)).toBe('signin serve');
    expect(startCommand('/etc/signin/prod.yaml', true)).toBe('npm start -- --config /etc/signin/prod.yaml');
    expect(startCommand('/etc/signin/prod.yaml', false)).toBe('signin serve --config /etc/signin/prod.yaml');
  });

  it('prints the start command of this checkout', async () => {
    ws = workspace();
    const target = join(ws.dir, 'new.yaml');
    const result = await cli(['init', '--config', target]);
    expect(result.stdout).toContain(`next: npm start -- --config ${target}`);
  });
});

describe('a development store made with other secrets', { timeout: 120_000 }, () => {
  let ws: Workspace;
  afterEach(() => ws.remove());

  it('is refused with the advice that it can be deleted', async () => {
    ws = workspace();
    // Signing keys sealed with a first key encryption key, then a config with another one.
    const db = await openPglite(ws.dataDir);
    try {
      await migrate(db);
      await loadKeysFromDatabase(db, ['RS256'], randomSecret());
    } finally {
      await db.close();
    }

    const withOtherKey = join(ws.dir, 'other.yaml');
    writeFileSync(withOtherKey, configWith(ws, randomSecret()));
    const result = await cli(['serve', '--port', '0', '--config', withOtherKey]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('secrets.keyEncryptionKey: does not decrypt');
    expect(result.stderr).toContain(`if it holds only development data, delete it (rm -r ${ws.dataDir})`);
  });
});

function configWith(ws: Workspace, keyEncryptionKey: string): string {
  return [
    'issuer: http://localhost:3000',
    'secrets:',
    `  cookieKeys: ["${randomSecret()}"]`,
    `  pairwiseSalt: "${randomSecret()}"`,
    `  keyEncryptionKey: "${keyEncryptionKey}"`,
    'storage:',
    '  kind: embedded',
    `  dataDir: ${JSON.stringify(ws.dataDir)}`,
    `mail: { outbox: ${JSON.stringify(join(ws.dir, 'outbox'))} }`,
  ].join('\n');
}

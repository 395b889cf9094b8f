import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { cli, workspace, type Workspace } from './support.ts';

describe('signin init', () => {
  let ws: Workspace;
  afterEach(() => ws.remove());

  it('writes a config that loads, with distinct fresh secrets and the keys in the database', async () => {
    ws = workspace();
    const target = join(ws.dir, 'new.yaml');
    const result = await cli(['init', '--config', target]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(target);

    const config = loadConfig(target, {});
    expect(config.issuer).toBe('http://localhost:3000');
    expect(config.storage).toEqual({ kind: 'embedded', dataDir: './data', requestDeadlineMs: 5000 });
    expect(config.keys.source).toBe('database');
    const [cookieKey] = config.secrets.cookieKeys;
    expect(cookieKey.length).toBeGreaterThanOrEqual(43);
    expect(config.secrets.pairwiseSalt.length).toBeGreaterThanOrEqual(43);
    expect(cookieKey).not.toBe(config.secrets.pairwiseSalt);
    expect(config.secrets.keyEncryptionKey!.length).toBeGreaterThanOrEqual(43);
    expect(new Set([cookieKey, config.secrets.pairwiseSalt, config.secrets.keyEncryptionKey]).size).toBe(3);
    // The file holds secrets: readable by its owner only.
    expect(statSync(target).mode & 0o077).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^# /m);

    const second = join(ws.dir, 'second.yaml');
    await cli(['init', '--config', second]);
    expect(loadConfig(second, {}).secrets.pairwiseSalt).not.toBe(config.secrets.pairwiseSalt);
    expect(loadConfig(second, {}).secrets.keyEncryptionKey).not.toBe(config.secrets.keyEncryptionKey);
  });

  it('refuses to overwrite an existing file unless --force', async () => {
    ws = workspace();
    const target = join(ws.dir, 'new.yaml');
    await cli(['init', '--config', target]);
    const before = readFileSync(target, 'utf8');

    const refused = await cli(['init', '--config', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(target, 'utf8')).toBe(before);

    const forced = await cli(['init', '--config', target, '--force', '--issuer', 'https://login.example.com']);
    expect(forced.code).toBe(0);
    expect(loadConfig(target, {}).issuer).toBe('https://login.example.com');
  });

  it('uses SIGNIN_CONFIG as the file to write when --config is absent', async () => {
    ws = workspace();
    const target = join(ws.dir, 'from-env.yaml');
    expect((await cli(['init'], { env: { SIGNIN_CONFIG: target } })).code).toBe(0);
    expect(existsSync(target)).toBe(true);
  });

  it('with --keys-file, writes the JWKS now and points the config at it', async () => {
    ws = workspace();
    const target = join(ws.dir, 'new.yaml');
    const keysFile = join(ws.dir, 'keys', 'jwks.json');
    expect((await cli(['init', '--config', target, '--keys-file', keysFile])).code).toBe(0);

    expect(loadConfig(target, {}).keys).toMatchObject({ source: 'file', file: keysFile });
    const { keys } = JSON.parse(readFileSync(keysFile, 'utf8')) as { keys: Array<{ alg: string; d?: string }> };
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(keys.every((k) => typeof k.d === 'string')).toBe(true);
  });

  it('takes the port from the issuer when it names one; --port wins; else the default port', async () => {
    ws = workspace();
    const port = async (...args: string[]) => {
      const target = join(ws.dir, `${args.join('-').replace(/\W+/g, '_') || 'plain'}.yaml`);
      expect((await cli(['init', '--config', target, ...args])).code).toBe(0);
      return loadConfig(target, {}).port;
    };
    expect(await port('--issuer', 'http://127.0.0.1:4801')).toBe(4801);
    expect(await port('--issuer', 'http://127.0.0.1:4801', '--port', '5000')).toBe(5000);
    expect(await port('--issuer', 'https://login.example.com')).toBe(3000);
    expect(await port()).toBe(3000);
    expect((await cli(['init', '--config', join(ws.dir, 'x.yaml'), '--port', '70000'])).code).toBe(2);
  });

  it('refuses a bad issuer with exit 2, naming the field, and writes nothing', async () => {
    ws = workspace();
    const target = join(ws.dir, 'new.yaml');
    const result = await cli(['init', '--config', target, '--issuer', 'https://login.example.com/']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('issuer');
    expect(existsSync(target)).toBe(false);
  });
});

// Signing keys in a JWKS file shared by instances that start together: every instance ends up with
// the keys on disk, so none signs with a kid the published JWKS lacks.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigningKey, loadKeysFromFile, type PrivateJwk } from '../../src/keys/signing-keys.ts';

const kids = (keys: Array<{ kid: string }>) => keys.map((k) => k.kid).sort();
const onDisk = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { keys: PrivateJwk[] }).keys;
const folder = () => mkdtempSync(join(tmpdir(), 'signin-keys-'));

describe('loadKeysFromFile', () => {
  it('gives concurrent first starts on a missing file the same keys, those on disk', async () => {
    const file = join(folder(), 'nested', 'jwks.json');
    const results = await Promise.all(Array.from({ length: 6 }, () => loadKeysFromFile(file, ['RS256', 'ES256'])));
    const published = kids(onDisk(file));
    expect(published).toHaveLength(2);
    for (const keys of results) expect(kids(keys)).toEqual(published);
    expect(readdirSync(join(file, '..'))).toEqual(['jwks.json']); // no temp file nor lock left behind
  });

  it('adds a missing algorithm once when instances start together, keeping every key already there', async () => {
    const file = join(folder(), 'jwks.json');
    const [rs] = await loadKeysFromFile(file, ['RS256']);
    const results = await Promise.all(Array.from({ length: 6 }, () => loadKeysFromFile(file, ['RS256', 'ES256', 'EdDSA'])));
    const published = onDisk(file);
    expect(published.map((k) => k.alg).sort()).toEqual(['ES256', 'EdDSA', 'RS256']);
    expect(published.map((k) => k.kid)).toContain(rs.kid);
    for (const keys of results) expect(kids(keys)).toEqual(kids(published));
  });

  it('uses the keys of an existing file as they are', async () => {
    const file = join(folder(), 'jwks.json');
    const existing = [generateSigningKey('RS256'), generateSigningKey('ES256')];
    writeFileSync(file, JSON.stringify({ keys: existing }));
    expect(kids(await loadKeysFromFile(file, ['ES256']))).toEqual(kids(existing));
  });

  it('breaks a lock left by an instance that died while adding a key', async () => {
    const file = join(folder(), 'jwks.json');
    await loadKeysFromFile(file, ['RS256']);
    writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${file}.lock`, old, old);
    const keys = await loadKeysFromFile(file, ['ES256']);
    expect(kids(keys)).toEqual(kids(onDisk(file)));
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('gives separate processes starting together the same keys', async () => {
    const file = join(folder(), 'jwks.json');
    const script = `import { loadKeysFromFile } from ${JSON.stringify(new URL('../../src/keys/signing-keys.ts', import.meta.url).href)};
      const keys = await loadKeysFromFile(process.argv[1], ['RS256', 'ES256']);
      process.stdout.write(keys.map((k) => k.kid).sort().join(','));`;
    const runOne = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
    const outputs = await Promise.all([runOne(), runOne(), runOne(), runOne()]);
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]).toBe(kids(onDisk(file)).join(','));
  }, 60_000);
});

describe('generateSigningKey', () => {
  it('names every key with a kid that the command line takes as an argument, never as an option', () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) expect(generateSigningKey(alg).kid).toMatch(/^[0-9a-f]{24}$/);
  });
});

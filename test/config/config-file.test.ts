// The provider config file: validated at start, naming the field that is wrong.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.ts';
import { loadConfig, parseConfig } from '../../src/config/load.ts';

const secrets = { cookieKeys: ['k'.repeat(40)], pairwiseSalt: 's'.repeat(40) };
const base = { issuer: 'https://id.example.org', secrets };

function problems(raw: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseConfig(raw, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map((p) => `${p.field}: ${p.message}`);
  }
  throw new Error('expected the config to be refused');
}

describe('config file', () => {
  it('fills documented defaults', () => {
    const config = parseConfig(base, {});
    expect(config.ttl.accessToken).toBe(3600);
    expect(config.ttl.authorizationCode).toBe(60);
    expect(config.languages).toEqual({ default: 'fr', supported: ['fr', 'en'] });
    expect(config.storage).toEqual({ kind: 'embedded', dataDir: './data', requestDeadlineMs: 5000 });
    expect(config.portal.path).toBe('/portal');
  });

  it('names an unknown key, also a nested one', () => {
    expect(problems({ ...base, prot: 3000 })).toEqual(['prot: unknown key; did you mean port?']);
    expect(problems({ ...base, ttl: { acessToken: 10 } })).toEqual(['ttl.acessToken: unknown key; did you mean accessToken?']);
    expect(problems({ ...base, colour: 'blue' })).toEqual(['colour: unknown key']);
  });

  it('names a bad value and what is expected', () => {
    const [problem] = problems({ ...base, ttl: { accessToken: -5 } });
    expect(problem).toMatch(/^ttl\.accessToken: /);
    expect(problems({ ...base, storage: { kind: 'mysql' } })[0]).toMatch(/^storage\.kind: /);
    expect(problems({ ...base, secrets: { ...secrets, pairwiseSalt: 'short' } })[0]).toBe(
      'secrets.pairwiseSalt: must be at least 32 characters',
    );
  });

  it('refuses values the service would silently misuse', () => {
    expect(problems({ ...base, portal: { path: '/oauth' } })[0]).toMatch(
      /^portal\.path: must not be or contain one of the service's own paths/,
    );
    expect(problems({ ...base, portal: { path: '/account/apps' } })[0]).toMatch(/^portal\.path: /);
    expect(problems({ ...base, portal: { path: '/portal/' } })[0]).toMatch(/^portal\.path: must be a path/);
    expect(parseConfig({ ...base, portal: { path: '/developers' } }, {}).portal.path).toBe('/developers');
    expect(problems({ ...base, issuer: 'https://user:pass@id.example.org' })).toEqual(['issuer: must not contain a user name or password']);
    expect(problems({ ...base, keys: { file: './jwks.json' } })).toEqual(['keys.file: keys.file is read only with keys.source: file']);
    expect(problems({ ...base, storage: { kind: 'embedded', redis: { url: 'redis://127.0.0.1', keyPrefix: '' } } })[0]).toMatch(
      /^storage\.redis\.keyPrefix: /,
    );
  });

  it('interpolates ${ENV} values and names a missing variable', () => {
    const config = parseConfig({ ...base, secrets: { ...secrets, pairwiseSalt: '${SALT}' } }, { SALT: 'x'.repeat(40) });
    expect(config.secrets.pairwiseSalt).toBe('x'.repeat(40));
    expect(problems({ ...base, storage: { kind: 'postgres', postgres: { url: '${DATABASE_URL}' } } })).toEqual([
      'storage.postgres.url: environment variable DATABASE_URL is not set',
    ]);
  });

  it('refuses development secrets and a plain-http issuer in production', () => {
    const dev = loadConfig(undefined, {});
    const found = problems({ ...dev, production: true, storage: dev.storage, issuer: 'http://id.example.org' });
    expect(found).toEqual(
      expect.arrayContaining([
        'issuer: production requires an https issuer',
        'secrets.cookieKeys: production refuses the development cookie key',
        'secrets.pairwiseSalt: production refuses the development pairwise salt',
        'secrets.keyEncryptionKey: production refuses the development key encryption key',
        'mail.smtp: production sends e-mail over SMTP; the outbox folder is for development',
      ]),
    );
    const smtp = { host: 'smtp.example.org', port: 587 };
    expect(problems({ ...base, production: true, mail: { smtp } })).toEqual([
      'secrets.keyEncryptionKey: production requires it when keys.source is "database" (it encrypts the signing keys)',
    ]);
    const keyEncryptionKey = 'e'.repeat(40);
    expect(parseConfig({ ...base, production: true, mail: { smtp }, secrets: { ...secrets, keyEncryptionKey } }, {}).production).toBe(true);
    // The keys in a file are not in the database: no key to require then.
    const fileKeys = { source: 'file', file: '/var/lib/signin/jwks.json' };
    expect(parseConfig({ ...base, production: true, mail: { smtp }, keys: fileKeys }, {}).production).toBe(true);
  });

  it('reads the file named by --config or SIGNIN_CONFIG, and says which file is wrong', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signin-config-'));
    const good = join(dir, 'good.yaml');
    writeFileSync(
      good,
      `issuer: https://id.example.org\nsecrets:\n  cookieKeys: ["${'k'.repeat(40)}"]\n  pairwiseSalt: \${SALT}\nport: 8080\n`,
    );
    expect(loadConfig(undefined, { SIGNIN_CONFIG: good, SALT: 'y'.repeat(40) }).port).toBe(8080);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, `issuer: https://id.example.org\nport: "huit"\n`);
    expect(() => loadConfig(bad, {})).toThrow(/bad\.yaml[\s\S]*port: /);
    expect(() => loadConfig(join(dir, 'missing.yaml'), {})).toThrow(/cannot read/);
  });

  it('uses the development defaults when no file is named', () => {
    const config = loadConfig(undefined, {});
    expect(config.issuer).toBe('http://localhost:3000');
    expect(config.production).toBe(false);
  });
});

// The published package is JavaScript: the build compiles the sources and copies the files they read
// at run time (views, migrations, the password list), so a host app runs it with plain Node, no tsx.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Inside the repository, so that the built files resolve the installed dependencies.
const out = join(process.cwd(), 'test-results', `dist-${randomBytes(4).toString('hex')}`);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const HOST_APP = `
import { createServer } from 'node:http';
const { createSignInService, parseConfig } = await import(process.env.ENTRY);
const server = createServer().listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = 'http://127.0.0.1:' + server.address().port;
const config = parseConfig({ issuer: url, secrets: { cookieKeys: ['c'.repeat(40)], pairwiseSalt: 's'.repeat(40) }, storage: { kind: 'embedded', dataDir: 'memory://' } });
const service = await createSignInService(config, { sweepIntervalSeconds: 0 });
server.on('request', service.app.callback());
const { client } = await service.context.clients.create({ name: 'Hôte', description: 'JS', appType: 'web', redirectUris: ['https://app.example.org/cb'], scopes: ['openid', 'email'] });
const discovery = await (await fetch(url + '/.well-known/openid-configuration')).json();
const authorize = await fetch(url + '/oauth/authorize?' + new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: 'https://app.example.org/cb', scope: 'openid email', state: 's', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' }), { redirect: 'manual' });
const login = await fetch(new URL(authorize.headers.get('location'), url), { headers: { cookie: authorize.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') } });
console.log(JSON.stringify({ token: discovery.token_endpoint === url + '/oauth/token', login: login.status, french: (await login.text()).includes('Mot de passe') }));
server.close();
await service.close();
`;

describe('JavaScript build', () => {
  it('runs under plain Node: migrations, pages and the engine all found', () => {
    execFileSync(process.execPath, ['bin/build-dist.js', out], { stdio: 'pipe' });
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', HOST_APP], {
      env: { ...process.env, ENTRY: join(out, 'src', 'index.js'), NODE_OPTIONS: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({ token: true, login: 200, french: true });
  }, 90_000);
});

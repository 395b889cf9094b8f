// The published package is JavaScript: the build compiles the sources and copies the files they read
// at run time (views, migrations, the password list), so a host app runs it with plain Node, no tsx,
// and so does the `signin` command, which runs the build when no TypeScript sources sit beside it.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startChild } from '../server/child-server.ts';

// Shaped like the installed package (dist/, bin/signin.js, package.json), inside the repository so
// that the built files resolve the installed dependencies.
const pkg = join(process.cwd(), 'test-results', `package-${randomBytes(4).toString('hex')}`);
beforeAll(() => {
  execFileSync(process.execPath, ['bin/build-dist.js', join(pkg, 'dist')], { stdio: 'pipe' });
  mkdirSync(join(pkg, 'bin'));
  copyFileSync('bin/signin.js', join(pkg, 'bin', 'signin.js'));
  copyFileSync('package.json', join(pkg, 'package.json'));
}, 120_000);
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

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

// No NODE_OPTIONS from the test runner (which may load a TypeScript loader) reaches the children.
const plainNode = { ...process.env, NODE_OPTIONS: '', SIGNIN_CONFIG: '' };

describe('JavaScript build', () => {
  it('runs under plain Node: migrations, pages and the engine all found', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', HOST_APP], {
      env: { ...plainNode, ENTRY: join(pkg, 'dist', 'src', 'index.js') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({ token: true, login: 200, french: true });
  }, 90_000);

  it('gives `signin` its version, and `signin init` then `signin serve` answer discovery from the build', async () => {
    const signin = join(pkg, 'bin', 'signin.js');
    const version = spawnSync(process.execPath, [signin, '--version'], { env: plainNode, encoding: 'utf8' });
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);

    const dir = mkdtempSync(join(tmpdir(), 'signin-package-'));
    try {
      const port = await freePort();
      // The port comes from the issuer; serve then reads ./signin.yaml, the file init wrote.
      const init = spawnSync(process.execPath, [signin, 'init', '--issuer', `http://127.0.0.1:${port}`], {
        cwd: dir,
        env: plainNode,
        encoding: 'utf8',
      });
      expect(init.status, init.stderr).toBe(0);
      expect(readFileSync(join(dir, 'signin.yaml'), 'utf8')).toContain(`\nport: ${port}\n`);

      const server = startChild(process.execPath, [signin, 'serve'], { cwd: dir, env: plainNode });
      try {
        await server.waitFor('listening');
        const discovery = (await (await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`)).json()) as { issuer: string };
        expect(discovery.issuer).toBe(`http://127.0.0.1:${port}`);
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exited).toBe(0);
      expect(server.output()).not.toMatch(/Error|tsx/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

// The integration page's programs run as displayed. An owner registers a new website with the form's
// defaults; the Node.js (openid-client) and Python (Authlib) programs are read from the rendered page,
// HTML-decoded and nothing else, and started with only CLIENT_SECRET and PORT in their environment. A
// user goes to the program's /login, signs in and consents at the service, and the browser's arrival at
// the redirect URI is handed to the program (which stands behind that https address in production): its
// answer is the signed-in user's userinfo. The single-page and mobile snippets, which need a browser
// page or a phone, are checked for the values they carry.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, signInAndConsent } from '../support/browser.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

const PYTHON = '/usr/bin/python3';
const REDIRECT_URI = 'https://app.example.org/callback';

const decode = (html: string) =>
  html
    .replace(/&#39;/g, "'")
    .replace(/&#34;/g, '"')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const block = (html: string, id: string) => {
  const match = new RegExp(`<pre id="${id}">([\\s\\S]*?)</pre>`).exec(html);
  if (!match) throw new Error(`no block ${id} on the page`);
  return decode(match[1]);
};

let ts: TestService;
let owner: Owner;
let dir: string;
const running: ChildProcess[] = [];
beforeAll(async () => {
  ts = await startTestService();
  owner = await signInToPortal(ts);
  dir = await mkdtemp(join(tmpdir(), 'portal-snippets-'));
  // The Node program imports openid-client as an application would, from its own node_modules.
  await symlink(resolve('node_modules'), join(dir, 'node_modules'));
});
afterAll(async () => {
  for (const child of running) child.kill();
  await ts?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A new website registered with the form as it is offered: its own scope choices, one redirect URI. */
async function newWebsite() {
  const form = await get(owner, '/apps/new');
  const checked = [...form.text.matchAll(/<input type="checkbox"[^>]*name="scope" value="(\w+)"[^>]*checked/g)].map((m) => m[1]);
  expect(checked, 'profile is checked by default').toEqual(['openid', 'email', 'profile']);
  const app = await registerApp(owner, {
    name: 'Boutique',
    description: 'Une boutique en ligne',
    app_type: 'web',
    redirect_uris: REDIRECT_URI,
    scope: checked,
  });
  return app;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Starts a displayed program and waits for its "listening" line. */
async function run(command: string, file: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(command, [file], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) } });
  running.push(child);
  let output = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`${file} did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening')) {
        clearTimeout(timer);
        ready();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${file} exited with ${code}:\n${output}`));
    });
  });
  return `http://127.0.0.1:${port}`;
}

/** A user's sign-in through the program: its /login, the service's pages, then the redirect URI it stands behind. */
async function signInThrough(program: string) {
  const user = await ts.createUser();
  const login = await fetch(`${program}/login`, { redirect: 'manual' });
  expect(login.status).toBe(302);
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  const authorize = new URL(login.headers.get('location')!);
  expect(authorize.searchParams.get('state'), 'the program sends state').toBeTruthy();
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  const { callback } = await signInAndConsent(new Browser(ts.url), authorize.href, user);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  const answer = await fetch(`${program}${callback.pathname}${callback.search}`, { headers: { cookie } });
  const text = await answer.text();
  expect(answer.status, text).toBe(200);
  const logout = await fetch(`${program}/logout`, { headers: { cookie }, redirect: 'manual' });
  return { user, userinfo: JSON.parse(text) as Record<string, unknown>, logout };
}

function expectSignedIn(result: Awaited<ReturnType<typeof signInThrough>>) {
  expect(result.userinfo).toMatchObject({ email: result.user.email, first_name: result.user.firstName, username: result.user.username });
  expect(result.userinfo.sub).toEqual(expect.any(String));
  // Sign-out: to the service's end-session endpoint, back to the registered redirect URI.
  expect(result.logout.status).toBe(302);
  const end = new URL(result.logout.headers.get('location')!);
  expect(`${end.origin}${end.pathname}`).toBe(`${ts.url}/oauth/logout`);
  expect(end.searchParams.get('post_logout_redirect_uri')).toBe(REDIRECT_URI);
  expect(end.searchParams.get('id_token_hint')).toBeTruthy();
}

describe('the integration page’s programs, as displayed', () => {
  it('Node.js with openid-client: signs a user in and answers their userinfo', async () => {
    const { page, clientSecret, clientId } = await newWebsite();
    const code = block(page.text, 'help-node');
    expect(code).toContain(`'${clientId}'`);
    await writeFile(join(dir, 'app.mjs'), code);
    const program = await run(process.execPath, 'app.mjs', { CLIENT_SECRET: clientSecret });
    expectSignedIn(await signInThrough(program));
  }, 120_000);

  it('Python with Authlib: signs a user in and answers their userinfo', async () => {
    const missing = !existsSync(PYTHON)
      ? `${PYTHON} is missing`
      : await new Promise<string | null>((done) => {
          const check = spawn(PYTHON, ['-c', 'import authlib, requests']);
          check.on('exit', (status) => done(status === 0 ? null : 'python3-authlib or python3-requests is not installed'));
        });
    // apt install python3-authlib python3-requests (.ci/run does): this test never skips.
    if (missing)
      throw new Error(`${missing}: the Python snippet cannot be run${process.env.CI ? ' (CI: this is a failure, not a skip)' : ''}`);
    const { page, clientSecret } = await newWebsite();
    await writeFile(join(dir, 'app.py'), block(page.text, 'help-python'));
    const program = await run(PYTHON, 'app.py', { CLIENT_SECRET: clientSecret });
    expectSignedIn(await signInThrough(program));
  }, 120_000);

  it('puts state next to every authorization URL, and a copy button on every block', async () => {
    const { page } = await newWebsite();
    const blocks = [...page.text.matchAll(/<pre id="(help-[\w-]+)">/g)].map((m) => m[1]);
    expect(blocks).toEqual(
      expect.arrayContaining(['help-node', 'help-python', 'help-pkce', 'help-authorize', 'help-token', 'help-sign-out']),
    );
    for (const id of blocks) expect(page.text, id).toContain(`data-copy="${id}"`);
    for (const id of ['help-node', 'help-python', 'help-authorize']) {
      expect(page.text).toMatch(
        new RegExp(
          `class="hint state-rule">[^<]*state[^<]*</p>\\s*<div class="code-block"[^>]*>\\s*<div class="code-scroll" tabindex="0"[^>]*>\\s*<pre id="${id}">`,
        ),
      );
    }
    expect(page.text).toContain('client.randomState()');
    // Which claims arrive where.
    expect(page.text).toMatch(
      /<table class="claims">[\s\S]*<code>sub iss aud exp iat auth_time<\/code>[\s\S]*<code>email email_verified<\/code>[\s\S]*<code>username first_name<\/code>/,
    );
  });
});

describe('the single-page and mobile snippets', () => {
  it('carry the application’s own values', async () => {
    const spa = await registerApp(owner, {
      name: 'Tableau',
      description: 'Une application monopage',
      app_type: 'spa',
      redirect_uris: 'https://spa.example.org/auth/callback',
      scope: ['openid', 'email', 'profile'],
    });
    const code = block(spa.page.text, 'help-spa');
    expect(code).toContain(`authority: '${ts.url}'`);
    expect(code).toContain(`client_id: '${spa.clientId}'`);
    expect(code).toContain("redirect_uri: 'https://spa.example.org/auth/callback'");
    expect(code).toContain("post_logout_redirect_uri: 'https://spa.example.org/auth/callback'");
    expect(code).toContain("scope: 'openid email profile'");
    expect(code).not.toMatch(/client_?secret/i);
    expect(spa.page.text).not.toContain('id="help-node"');

    const mobile = await registerApp(owner, {
      name: 'Baobab',
      description: 'Une application mobile',
      app_type: 'mobile',
      redirect_uris: 'com.example.baobab:/callback',
      scope: ['openid', 'email'],
    });
    const android = block(mobile.page.text, 'help-android');
    const ios = block(mobile.page.text, 'help-ios');
    for (const snippet of [android, ios]) {
      expect(snippet).toContain(`"${ts.url}"`);
      expect(snippet).toContain(`"${mobile.clientId}"`);
      expect(snippet).toContain('"com.example.baobab:/callback"');
      expect(snippet).toContain('"openid", "email"');
      expect(snippet).not.toMatch(/client_?secret/i);
    }
    expect(android).toContain('manifestPlaceholders["appAuthRedirectScheme"] = "com.example.baobab"');
    // The Custom Tab as a bottom sheet.
    expect(android).toContain('setInitialActivityHeightPx');
    expect(android).toContain('getAuthorizationRequestIntent(request, sheet)');
    expect(ios).toContain('OIDAuthState.authState(byPresenting: request');
  });
});

describe('a public application’s secret', () => {
  it('is issued but folded under “not needed”, with no rotation offered', async () => {
    const app = await registerApp(owner, {
      name: 'Monopage',
      description: 'Une application monopage',
      app_type: 'spa',
      redirect_uris: 'https://spa.example.org/cb',
      scope: ['openid', 'email'],
    });
    expect(app.page.text).toMatch(
      /<details class="unneeded-secret">\s*<summary>client_secret\u00a0: inutile pour ce type d’application<\/summary>[\s\S]*id="client-secret"[\s\S]*<\/details>/,
    );
    expect(app.page.text).not.toContain('role="alert"');
    expect(app.page.text).not.toContain('/rotate-secret');
    expect((await get(owner, `/apps/${app.clientId}/rotate-secret`)).status).toBe(404);
    const refused = await post(owner, `/apps/${app.clientId}/rotate-secret`, {}, csrfOf(app.page.text));
    expect(refused.status).toBe(404);
  });
});

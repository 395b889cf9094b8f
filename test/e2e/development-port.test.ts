// `PORT=N npm start` on the development defaults: the issuer moves with the listener, and the example
// application (examples/relying-party, told the issuer and its own port by the environment) signs a user
// in against it. Run as an operator does, from a folder of its own (./data is created there).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser, signInAndConsent } from '../support/browser.ts';

const ROOT = process.cwd();
const SIGNIN = join(ROOT, 'bin', 'signin.js');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const PASSWORD = 'correct-horse-battery-staple-9';

// Below Linux's ephemeral range (32768 and up), where outgoing connections take theirs.
const freePort = (): number => 20000 + Math.floor(Math.random() * 12000);

interface Running {
  child: ChildProcess;
  /** stdout and stderr together. */
  output: () => string;
  stdout: () => string;
}

function start(cmd: string, args: string[], cwd: string, env: Record<string, string>): Running {
  // No SIGNIN_CONFIG from the developer's shell: the development defaults are what is tested.
  const child = spawn(cmd, args, { cwd, env: { ...process.env, SIGNIN_CONFIG: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let stdout = '';
  child.stdout!.on('data', (d) => ((out += d), (stdout += d)));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out, stdout: () => stdout };
}

async function runToEnd(args: string[], cwd: string, stdin = ''): Promise<string> {
  const run = start(process.execPath, [SIGNIN, ...args], cwd, {});
  run.child.stdin!.end(stdin);
  const [code] = (await once(run.child, 'exit')) as [number];
  if (code !== 0) throw new Error(`signin ${args.join(' ')} exited ${code}:\n${run.output()}`);
  return run.stdout();
}

async function waitFor(run: Running, text: string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (run.output().includes(text)) return;
    if (run.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`never printed "${text}":\n${run.output()}`);
}

const running: Running[] = [];
const dir = mkdtempSync(join(tmpdir(), 'signin-dev-port-'));
afterAll(async () => {
  for (const { child } of running) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('PORT on the development defaults', { timeout: 240_000 }, () => {
  it('moves the issuer, and the example application signs in against it', async () => {
    const port = freePort();
    const rpPort = port + 1;
    const issuer = `http://localhost:${port}`;
    await runToEnd(
      ['user', 'create', '--email', 'ada@example.com', '--username', 'ada', '--first-name', 'Ada', '--verified'],
      dir,
      `${PASSWORD}\n`,
    );
    const created = JSON.parse(
      await runToEnd(
        [
          'client',
          'create',
          '--name',
          'Exemple',
          '--description',
          'Exemple',
          '--type',
          'spa',
          '--json',
          '--scopes',
          'openid email profile',
        ].concat(['--redirect-uri', `http://localhost:${rpPort}/callback`]),
        dir,
      ),
    ) as { client_id: string };

    const server = start(process.execPath, [SIGNIN, 'serve'], dir, { PORT: String(port) });
    running.push(server);
    await waitFor(server, 'listening');
    expect(server.output()).toContain(`(issuer ${issuer},`);
    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      token_endpoint: string;
    };
    expect(discovery.issuer).toBe(issuer);
    expect(discovery.token_endpoint).toBe(`${issuer}/oauth/token`);

    const rp = start(TSX, [join(ROOT, 'examples', 'relying-party', 'main.ts')], dir, {
      ISSUER: issuer,
      PORT: String(rpPort),
      CLIENT_ID: created.client_id,
    });
    running.push(rp);
    await waitFor(rp, `relying party on http://localhost:${rpPort}`);

    const home = await fetch(`http://localhost:${rpPort}/`);
    const cookie = home.headers.get('set-cookie')!.split(';')[0];
    const authorizeUrl = /href="([^"]+)"/.exec(await home.text())![1].replaceAll('&#38;', '&');
    expect(authorizeUrl.startsWith(`${issuer}/oauth/authorize?`)).toBe(true);

    const { callback } = await signInAndConsent(new Browser(issuer), authorizeUrl, { email: 'ada@example.com', password: PASSWORD });
    expect(callback.origin).toBe(`http://localhost:${rpPort}`);
    const answer = await fetch(callback, { headers: { cookie } });
    const page = await answer.text();
    expect(answer.status, page).toBe(200);
    expect(page).toContain('Bonjour Ada');
  });
});

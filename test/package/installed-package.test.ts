// What an operator does with the published package: `npm pack`, then in an empty folder
// `npm install ./signin-service-*.tgz && npx signin init && npx signin serve`, which answers discovery
// with no TypeScript tooling installed. The dependencies come from npm's cache when it has them (the
// repository's own `npm ci` put them there), else from the registry.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startChild } from '../server/child-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'signin-installed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// npm and npx of the Node running the tests, whatever the shell's PATH says first.
const env = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  NODE_OPTIONS: '',
  SIGNIN_CONFIG: '',
};
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the package installed from its tarball', () => {
  it('installs without TypeScript tooling, and `npx signin init && npx signin serve` answers discovery', async () => {
    // `prepack` builds dist/ first.
    npm(['pack', '--pack-destination', dir], process.cwd());
    const tarball = readdirSync(dir).find((f) => /^signin-service-.*\.tgz$/.test(f));
    expect(tarball).toBeDefined();
    const app = join(dir, 'app');
    execFileSync('mkdir', [app]);
    npm(['init', '-y'], app);
    npm(['install', join(dir, tarball!), '--prefer-offline', '--no-audit', '--no-fund'], app);
    for (const tooling of ['tsx', 'typescript', 'esbuild']) expect(existsSync(join(app, 'node_modules', tooling)), tooling).toBe(false);

    const init = spawnSync('npx', ['signin', 'init'], { cwd: app, env, encoding: 'utf8' });
    expect(init.status, init.stderr).toBe(0);
    const port = await freePort();
    const server = startChild('npx', ['signin', 'serve', '--port', String(port)], { cwd: app, env });
    try {
      await server.waitFor('listening');
      const res = await fetch(`http://localhost:${port}/.well-known/openid-configuration`);
      expect(res.status).toBe(200);
      // The file init wrote names a development issuer on this machine: it follows --port.
      expect(((await res.json()) as { issuer: string }).issuer).toBe(`http://localhost:${port}`);
    } finally {
      // npx runs the server under a shell and passes no signal on: a process manager signals the
      // server itself (docs/operations/deploy.md says to run `signin serve` directly), and so does this
      // test.
      process.kill(deepestDescendant(server.child.pid!), 'SIGTERM');
    }
    // The server stopped cleanly, and npx, then the shell, exit with its code.
    expect(await server.exited).toBe(0);
  }, 240_000);
});

/** The last process in the chain of first children below `pid` (npx, its shell, then the server). */
function deepestDescendant(pid: number): number {
  const child = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')[0];
  return child ? deepestDescendant(Number(child)) : pid;
}

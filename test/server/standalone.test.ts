// What `npm start` runs: the example server answers discovery, and a wrong config stops it with a
// message naming the field and exit code 2.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(tsx, ['examples/server/main.ts', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('standalone server', () => {
  it('starts on the embedded store and serves discovery', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signin-server-'));
    // The issuer names the port, so it is chosen here rather than by the system. From below Linux's
    // ephemeral range (32768 and up), where outgoing connections take theirs; a port already taken
    // anyway (another server) is tried again with another.
    let started: { server: ReturnType<typeof run>; port: number } | undefined;
    for (let attempt = 0; attempt < 5 && !started; attempt += 1) {
      const port = 20000 + Math.floor(Math.random() * 12000);
      const file = join(dir, `signin-${port}.yaml`);
      writeFileSync(
        file,
        [
          `issuer: http://localhost:${port}`,
          `port: ${port}`,
          'secrets:',
          `  cookieKeys: ["${'c'.repeat(40)}"]`,
          `  pairwiseSalt: "${'s'.repeat(40)}"`,
          'storage:',
          '  kind: embedded',
          `  dataDir: ${join(dir, 'data')}`,
        ].join('\n'),
      );
      const server = run(['--config', file]);
      for (let i = 0; i < 400 && !server.output().includes('listening') && !server.output().includes('EADDRINUSE'); i += 1)
        await new Promise((r) => setTimeout(r, 200));
      if (server.output().includes('EADDRINUSE')) await server.exited;
      else started = { server, port };
    }
    if (!started) throw new Error('no free port found in five attempts');
    const { server, port } = started;
    try {
      expect(server.output()).toContain(`listening on http://localhost:${port}`);
      const doc = (await (await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`)).json()) as { issuer: string };
      expect(doc.issuer).toBe(`http://localhost:${port}`);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 100_000);

  it('refuses a config with a wrong field, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signin-server-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      `issuer: http://localhost:3000\nsecrets:\n  cookieKeys: ["${'c'.repeat(40)}"]\n  pairwiseSalt: "${'s'.repeat(40)}"\nttl:\n  accesToken: 10\n`,
    );
    const server = run(['--config', file]);
    expect(await server.exited).toBe(2);
    expect(server.output()).toContain('ttl.accesToken: unknown key');
    expect(server.output()).not.toMatch(/\n\s+at /);
  });
});

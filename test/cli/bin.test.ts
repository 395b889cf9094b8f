// The real program: `node bin/signin.js`, as an operator runs it, through tsx and entry.ts.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_ARGS, workspace } from './support.ts';

const BIN = fileURLToPath(new URL('../../bin/signin.js', import.meta.url));

function signin(args: string[], env: NodeJS.ProcessEnv = {}) {
  // `node` from PATH, as in a shell; the environment is inherited but SIGNIN_CONFIG is ours.
  return spawnSync('node', [BIN, ...args], { encoding: 'utf8', env: { ...process.env, SIGNIN_CONFIG: '', ...env }, timeout: 60_000 });
}

describe('bin/signin.js', { timeout: 90_000 }, () => {
  it('prints the usage with --help and exits 0', () => {
    const result = signin(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage: signin <command>/);
  });

  it('registers a client and prints JSON, reading the config from SIGNIN_CONFIG', () => {
    const ws = workspace();
    try {
      const result = signin([...CLIENT_ARGS, '--json'], { SIGNIN_CONFIG: ws.config });
      // stderr holds only the security-log line of the registration.
      expect(
        result.stderr
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).event),
      ).toEqual(['application.created']);
      expect(result.status).toBe(0);
      const created = JSON.parse(result.stdout) as { client_id: string; client_secret: string };
      expect(created.client_id).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(created.client_secret).toMatch(/^[A-Za-z0-9]{48}$/);
    } finally {
      ws.remove();
    }
  });

  it('exits 2 on an unknown option', () => {
    const result = signin(['migrate', '--verbose']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown option --verbose');
  });
});

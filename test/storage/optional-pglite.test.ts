// PGlite is an optional dependency: a Postgres deployment may be installed without it. These tests run
// the real `signin` program with a module hook that makes `@electric-sql/pglite` unresolvable (Node's own
// "Cannot find package" error, as when it is not installed) and writes a line each time it is asked for.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspace, type Workspace } from '../cli/support.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { freePort, startChild } from '../server/child-server.ts';

const BIN = fileURLToPath(new URL('../../bin/signin.js', import.meta.url));
const ASKED = 'pglite was requested';

// Resolved from a folder with no node_modules around it, the package is genuinely not found.
const WITHOUT_PGLITE = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    if (specifier !== '@electric-sql/pglite' && !specifier.startsWith('@electric-sql/pglite/')) return next(specifier, context);
    process.stderr.write(${JSON.stringify(`${ASKED}\n`)});
    return next(specifier, { ...context, parentURL: 'file:///nonexistent/parent.mjs' });
  },
});
`)}`;

const args = (rest: string[]) => ['--import', WITHOUT_PGLITE, BIN, ...rest];
const env = { ...process.env, NODE_OPTIONS: '', SIGNIN_CONFIG: '' };
const signin = (rest: string[]) => spawnSync(process.execPath, args(rest), { encoding: 'utf8', env, timeout: 60_000 });

describe('without @electric-sql/pglite installed', { timeout: 90_000 }, () => {
  let embedded: Workspace;
  beforeAll(() => {
    embedded = workspace();
  });
  afterAll(() => embedded.remove());

  it('a command on the embedded store stops with a message naming storage.kind and both ways out', () => {
    const result = signin(['client', 'list', '--config', embedded.config]);
    expect(result.stderr).toContain(ASKED);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^signin: cannot open the database \(embedded store .*\): the embedded store \(config storage\.kind: embedded/m,
    );
    expect(result.stderr).toContain('`npm install @electric-sql/pglite`');
    expect(result.stderr).toContain('configure Postgres (storage.kind: postgres and storage.postgres.url)');
    expect(result.stderr).not.toMatch(/unexpected error|at .*\.ts:/);
  });

  it('`signin serve` on the embedded store stops with the same message, not a stack trace', async () => {
    const server = startChild(process.execPath, args(['serve', '--config', embedded.config, '--port', String(await freePort())]), { env });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(
      /^signin: the embedded store \(config storage\.kind: embedded, the default\) needs the optional package @electric-sql\/pglite/m,
    );
    expect(server.output()).toContain('`npm install @electric-sql/pglite`');
    expect(server.output()).not.toMatch(/unexpected error|listening/);
  });

  describe('on Postgres', () => {
    let pg: FreshPostgres;
    let ws: Workspace;
    beforeAll(async () => {
      pg = await freshPostgres();
      ws = workspace({ storage: ['storage:', '  kind: postgres', '  postgres:', `    url: ${JSON.stringify(pg.url)}`] });
    });
    afterAll(async () => {
      ws?.remove();
      await pg?.drop();
    });

    it('the CLI works and never asks for PGlite', () => {
      const result = signin(['client', 'list', '--config', ws.config]);
      expect(result.stderr).not.toContain(ASKED);
      expect(result.status, result.stderr).toBe(0);
    });

    it('`signin serve` answers discovery and never asks for PGlite', async () => {
      const port = await freePort();
      const server = startChild(process.execPath, args(['serve', '--config', ws.config, '--port', String(port)]), { env });
      try {
        await server.waitFor('listening');
        const res = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
        expect(res.status).toBe(200);
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exited).toBe(0);
      expect(server.output()).not.toContain(ASKED);
    });
  });
});

// Against a shared Postgres the CLI never migrates on its own: a server of the previous version may
// still be running on it. Needs the local test server (SIGNIN_TEST_POSTGRES_URL).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ARGS, cli, workspace, type Workspace } from './support.ts';

const ADMIN_URL = process.env.SIGNIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect().catch((error: Error) => {
    throw new Error(`these tests need Postgres at ${ADMIN_URL} (set SIGNIN_TEST_POSTGRES_URL): ${error.message}`);
  });
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('signin on Postgres', { timeout: 60_000 }, () => {
  const name = `signin_cli_${randomBytes(6).toString('hex')}`;
  let ws: Workspace;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    ws = workspace({ storage: ['storage:', '  kind: postgres', '  postgres:', `    url: ${JSON.stringify(url.toString())}`] });
  });
  afterAll(async () => {
    ws?.remove();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('refuses to work on an unmigrated schema, then works after signin migrate', async () => {
    const before = await cli(['client', 'list', '--config', ws.config]);
    expect(before.code).toBe(1);
    expect(before.stderr).toMatch(/signin migrate/);

    expect((await cli(['migrate', '--config', ws.config])).stdout).toMatch(/applied migration 001/);
    expect((await cli(['migrate', '--config', ws.config])).stdout).toMatch(/schema up to date/);

    const created = await cli([...CLIENT_ARGS, '--json', '--config', ws.config]);
    expect(created.code).toBe(0);
    const { client_id } = JSON.parse(created.stdout) as { client_id: string };
    expect((await cli(['client', 'list', '--config', ws.config])).stdout).toContain(client_id);
  });
});

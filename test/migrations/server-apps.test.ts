// Migration 012: an application registered as `server` when the type still meant what `web` means (a
// user signs in, a code comes back to a redirect URI) becomes `web`, and keeps working; a `server`
// application of today (no redirect URI: client_credentials only) stays what it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../adapters/sql/database.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';

let db: Database;
beforeAll(async () => {
  db = await openPglite('memory://');
  await migrate(db);
});
afterAll(() => db?.close());

const insert = (clientId: string, redirectUris: string[]) =>
  db.query(
    `INSERT INTO clients (client_id, secret_hash, name, description, app_type, redirect_uris, scopes) VALUES ($1, 'x', 'App', 'App', 'server', $2, '[]')`,
    [clientId, JSON.stringify(redirectUris)],
  );

describe('migration 012', () => {
  it('turns the server applications that sign users in into web applications, and only those', async () => {
    await insert('older-server-app', ['https://app.example.org/callback']);
    await insert('machine-app', []);
    // Run 012 again as on a database registered before it.
    await db.query('DELETE FROM schema_migrations WHERE version = 12');
    expect(await migrate(db)).toEqual([12]);
    const { rows } = await db.query<{ client_id: string; app_type: string }>(`SELECT client_id, app_type FROM clients ORDER BY client_id`);
    expect(rows).toEqual([
      { client_id: 'machine-app', app_type: 'server' },
      { client_id: 'older-server-app', app_type: 'web' },
    ]);
  });
});

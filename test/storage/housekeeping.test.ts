// Housekeeping: expired rows leave SQL in small batches (each a short statement that never holds
// the table for long), live and never-expiring rows stay; where no autovacuum runs, a vacuum follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpired } from '../../adapters/sql/adapter.ts';
import { housekeeping, sweepExpired } from '../../adapters/sql/sweep.ts';
import type { Database, Queryable } from '../../adapters/sql/database.ts';
import { freshPglite, freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { vacuumsOfModels } from './helpers/vacuums.ts';

let pg: FreshPostgres;
let lite: Database;
beforeAll(async () => {
  pg = await freshPostgres();
  lite = await freshPglite();
});
afterAll(async () => {
  await pg?.drop();
  await lite?.close();
});

async function seed(db: Queryable, expired: number, live: number, forever: number): Promise<void> {
  const insert = (prefix: string, count: number, expiresAt: string) =>
    db.query(
      `INSERT INTO oidc_models (model, id_hash, payload, expires_at)
       SELECT 'AccessToken', $1 || g, '{}'::jsonb, ${expiresAt} FROM generate_series(1, $2::int) AS g`,
      [prefix, count],
    );
  await insert('expired-', expired, `now() - interval '1 minute'`);
  await insert('live-', live, `now() + interval '1 hour'`);
  await insert('forever-', forever, 'NULL');
}

/** The database, counting the DELETE statements it is given. */
function counting(db: Database): { db: Database; deletes: number[] } {
  const deletes: number[] = [];
  const wrapped = Object.create(db) as Database;
  wrapped.query = async (sql, params) => {
    const res = await db.query(sql, params);
    if (/^\s*DELETE/i.test(sql)) deletes.push(res.rowCount);
    return res as never;
  };
  return { db: wrapped, deletes };
}

describe.each(['postgres', 'pglite'])('deleteExpired on %s', (kind) => {
  it('removes expired rows in batches and keeps the others', async () => {
    const db = kind === 'postgres' ? pg.db : lite;
    await seed(db, 1_250, 30, 20);
    const counted = counting(db);
    const removed = await deleteExpired(counted.db, 500);
    expect(removed).toBe(1_250);
    expect(counted.deletes).toEqual([500, 500, 250]);
    const left = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM oidc_models`);
    expect(left.rows[0].n).toBe('50');
    expect(await deleteExpired(db)).toBe(0);
  });
});

describe.each(['postgres', 'pglite'])('sweepExpired on %s', (kind) => {
  it('also removes expired e-mail links, session records and rate-limit windows, and keeps live ones', async () => {
    const db = kind === 'postgres' ? pg.db : lite;
    const account = `acc-${kind}`;
    await db.query(`INSERT INTO accounts (id, email, username, first_name, password_hash) VALUES ($1, $2, $3, 'Awa', 'x')`, [
      account,
      `${account}@example.org`,
      account,
    ]);
    await db.query(
      `INSERT INTO email_tokens (token_hash, purpose, account_id, expires_at) VALUES
         ('old-${kind}', 'verify-email', $1, now() - interval '1 minute'), ('new-${kind}', 'verify-email', $1, now() + interval '1 hour')`,
      [account],
    );
    await db.query(
      `INSERT INTO account_sessions (session_uid, account_id, expires_at) VALUES
         ('old-${kind}', $1, now() - interval '1 minute'), ('new-${kind}', $1, now() + interval '1 hour')`,
      [account],
    );
    await db.query(`INSERT INTO rate_limits (key, points, expire) VALUES ('old-${kind}', 1, $1), ('new-${kind}', 1, $2)`, [
      Date.now() - 60_000,
      Date.now() + 3_600_000,
    ]);
    expect(await sweepExpired(db)).toBeGreaterThanOrEqual(3);
    for (const [table, key] of [
      ['email_tokens', 'token_hash'],
      ['account_sessions', 'session_uid'],
      ['rate_limits', 'key'],
    ]) {
      const rows = await db.query<{ k: string }>(`SELECT ${key} AS k FROM ${table} WHERE ${key} LIKE $1 ORDER BY 1`, [`%-${kind}`]);
      expect(rows.rows.map((r) => r.k)).toEqual([`new-${kind}`]);
    }
  });
});

describe.each(['postgres', 'pglite'])('housekeeping on %s', (kind) => {
  it('vacuums the tables it swept when no autovacuum runs, and leaves it to autovacuum when one does', async () => {
    const db = kind === 'postgres' ? pg.db : lite;
    const vacuums = () => vacuumsOfModels(db);
    // The embedded store's Postgres runs single-user: no autovacuum whatever the setting says.
    const autovacuum =
      kind === 'postgres' && (await db.query<{ v: string }>(`SELECT current_setting('autovacuum') AS v`)).rows[0].v === 'on';
    await seed(db, 300, 0, 0);
    const before = await vacuums();
    await housekeeping(db);
    expect(await db.query(`SELECT 1 FROM oidc_models WHERE id_hash LIKE 'expired-%'`)).toMatchObject({ rowCount: 0 });
    expect(await vacuums()).toBe(autovacuum ? before : before + 1);
  });
});

// Housekeeping: expired engine rows leave SQL in small batches (each a short statement that never holds
// the table for long), live and never-expiring rows stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpired } from '../../adapters/sql/adapter.ts';
import type { Database, Queryable } from '../../adapters/sql/database.ts';
import { freshPglite, freshPostgres, type FreshPostgres } from '../support/databases.ts';

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

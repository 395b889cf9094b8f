// Periodic removal of expired rows from every table that has some, in small batches so that no
// request waits behind a long delete. Readers already ignore expired rows; this only reclaims space,
// and where no autovacuum runs, the vacuum that follows gives it back to the tables and their indexes.
import type { Database } from './database.ts';
import { deleteExpired } from './adapter.ts';
import { deleteExpiredFamilies } from './refresh-tokens.ts';

/** Tables besides the engine's, with the condition that makes a row expired. */
const EXPIRING: ReadonlyArray<{ table: string; expired: string }> = [
  { table: 'email_tokens', expired: 'expires_at < now()' },
  { table: 'account_sessions', expired: 'expires_at < now()' },
  // A consent follows its grant's expiry (src/grants/consent-lifetime.ts).
  { table: 'consents', expired: 'expires_at < now()' },
  // rate-limiter-flexible keeps the end of each window as epoch milliseconds.
  { table: 'rate_limits', expired: `expire < (extract(epoch FROM now()) * 1000)::bigint` },
  // The durable record of codes redeemed and tokens revoked (migration 016) is needed while they could
  // be presented, no longer.
  { table: 'redeemed_codes', expired: 'expires_at < now()' },
  { table: 'revoked_tokens', expired: 'expires_at < now()' },
  // Phone codes (migration 023) once they can no longer be entered, and the message budget of past days.
  { table: 'phone_codes', expired: 'expires_at < now()' },
  { table: 'phone_message_budget', expired: "day < (now() AT TIME ZONE 'UTC')::date - 7" },
];

/**
 * The tables whose rows come and go with use: the engine's and the families (a refresh inserts a token
 * and retires one), and every table swept above. Each deleted row leaves a dead entry in every index of
 * its table until a vacuum removes it.
 */
const CHURNING = ['oidc_models', 'refresh_families', ...EXPIRING.map(({ table }) => table)];

/**
 * Vacuums (and analyzes) the churning tables when nothing else does: on Postgres with autovacuum off,
 * and on the embedded store, whose single-user Postgres runs no autovacuum. Without it the indexes
 * of the refresh path grow with every refresh ever made, and refresh slows down as the service runs
 * (by a third in ten minutes at 300 refreshes a second). With autovacuum on, Postgres does it better.
 */
export async function vacuumUnattended(db: Database): Promise<boolean> {
  if (db.kind === 'postgres') {
    const { rows } = await db.query<{ on: string }>(`SELECT current_setting('autovacuum') AS on`);
    if (rows[0]?.on === 'on') return false;
  }
  await db.exec(`VACUUM (ANALYZE) ${CHURNING.join(', ')}`);
  return true;
}

export async function sweepExpired(db: Database, batch = 500): Promise<number> {
  let total = await deleteExpired(db, batch);
  // Families keep the service's clock (epoch seconds), as the rotations that write them.
  total += await deleteExpiredFamilies(db, Math.floor(Date.now() / 1000), batch);
  for (const { table, expired } of EXPIRING) {
    for (;;) {
      const res = await db.query(`DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${expired} LIMIT $1)`, [batch]);
      total += res.rowCount;
      if (res.rowCount < batch) break;
    }
  }
  return total;
}

/** What the service runs every `sweepIntervalSeconds`: expired rows out, then the space they held back. */
export async function housekeeping(db: Database): Promise<void> {
  await sweepExpired(db);
  await vacuumUnattended(db);
}

// Periodic removal of expired rows from every table that has some, in small batches so that no
// request waits behind a long delete. Readers already ignore expired rows; this only reclaims space.
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
];

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

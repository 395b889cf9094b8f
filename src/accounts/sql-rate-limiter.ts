// rate-limiter-flexible's store over our own SQL connection, for deployments without Redis. The
// library's RateLimiterPostgres wants a `pg` pool of its own and cannot run on the embedded PGlite;
// this store runs the same atomic upsert through the Database interface, so it works on both, and
// every instance sharing the database shares the counters (table `rate_limits`, migration 002).
import { createRequire } from 'node:module';
import { RateLimiterRes, type RateLimiterStoreAbstract as StoreAbstract } from 'rate-limiter-flexible';
import type { Queryable } from '../../adapters/sql/database.ts';

// The base class of the library's stores is typed in its index but not exported from it at run time.
const RateLimiterStoreAbstract = createRequire(import.meta.url)('rate-limiter-flexible/lib/RateLimiterStoreAbstract.js') as typeof StoreAbstract;

interface Row {
  points: number;
  expire: string | number | null;
}

export class RateLimiterSql extends RateLimiterStoreAbstract {
  constructor(
    private readonly db: Queryable,
    options: { keyPrefix: string; points: number; duration: number; blockDuration?: number },
  ) {
    super({ ...options, storeClient: db });
  }

  // The hooks below are the library's store contract (RateLimiterStoreAbstract calls them).

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<Row> {
    const now = Date.now();
    const newExpire = msDuration > 0 ? now + msDuration : null;
    const res = await this.db.query<Row>(
      `INSERT INTO rate_limits (key, points, expire) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET
         points = CASE WHEN (rate_limits.expire <= $4 OR $5) THEN $2 ELSE rate_limits.points + $2 END,
         expire = CASE WHEN (rate_limits.expire <= $4 OR $5) THEN $3 ELSE rate_limits.expire END
       RETURNING points, expire`,
      [key, points, newExpire, now, forceExpire],
    );
    return res.rows[0];
  }

  async _get(key: string): Promise<Row | null> {
    const res = await this.db.query<Row>('SELECT points, expire FROM rate_limits WHERE key = $1 AND (expire > $2 OR expire IS NULL)', [key, Date.now()]);
    return res.rows[0] ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    const res = await this.db.query('DELETE FROM rate_limits WHERE key = $1', [key]);
    return res.rowCount > 0;
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: Row): RateLimiterRes {
    const points = Number(row.points);
    const isFirstInDuration = changedPoints === points;
    const consumedPoints = isFirstInDuration ? changedPoints : points;
    const expire = row.expire === null ? null : Number(row.expire);
    return new RateLimiterRes(Math.max(this.points - consumedPoints, 0), expire ? Math.max(expire - Date.now(), 0) : -1, consumedPoints, isFirstInDuration);
  }
}

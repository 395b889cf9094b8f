// rate-limiter-flexible's Postgres store over our own SQL connection, for deployments without Redis.
// The library's RateLimiterPostgres runs its atomic upsert through any client with a pg-style
// `query({ text, values })`; handing it our Database (Postgres pool or embedded PGlite) rather than a
// `pg` pool of its own makes it work on both, and every instance sharing the database shares the
// counters (table `rate_limits`, migration 002).
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Queryable } from '../../adapters/sql/database.ts';

/** The part of a `pg` client the library's store calls: `query` with a query object. */
interface PgStyleClient {
  query(q: { text: string; values?: unknown[]; name?: string }): Promise<{ rows: unknown[]; rowCount: number }>;
}

/**
 * `expire` is a bigint column, which `pg` returns as a string and PGlite may return as a BigInt: the
 * library does arithmetic on it, so both columns reach it as plain numbers.
 */
function asPgClient(db: Queryable): PgStyleClient {
  return {
    async query({ text, values }) {
      const res = await db.query<{ points?: unknown; expire?: unknown }>(text, values);
      const rows = res.rows.map((row) => ({
        ...row,
        ...('points' in row ? { points: Number(row.points) } : {}),
        ...('expire' in row ? { expire: row.expire === null ? null : Number(row.expire) } : {}),
      }));
      return { rows, rowCount: res.rowCount };
    },
  };
}

export class RateLimiterSql extends RateLimiterPostgres {
  constructor(db: Queryable, options: { keyPrefix: string; points: number; duration: number; blockDuration?: number }) {
    super({
      ...options,
      storeClient: asPgClient(db),
      // A plain client: the library then calls `query` on it directly, with no pool to acquire from.
      storeType: 'client',
      tableName: 'rate_limits',
      // The table belongs to the migrations, and the storage sweep deletes expired rows.
      tableCreated: true,
      clearExpiredByTimeout: false,
    });
  }
}

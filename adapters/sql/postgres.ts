import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database.ts';
import { isStorageUnavailable, rethrowClassified } from '../unavailable.ts';
import { listenPostgres } from './listen.ts';

export interface PostgresOptions {
  url: string;
  max?: number;
  connectionTimeoutMs?: number;
  idleTimeoutMs?: number;
  statementTimeoutMs?: number;
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    // A server that does not answer (down, or a network that drops packets) fails the request within
    // these bounds instead of holding it: the caller gets a 503, not a hung socket.
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 3000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30000,
    statement_timeout: options.statementTimeoutMs ?? 5000,
    query_timeout: options.statementTimeoutMs ?? 5000,
  });
  // An idle client that loses its server emits here; without a listener the process would crash.
  pool.on('error', () => {});
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      try {
        const res = await q.query(sql, params);
        return { rows: res.rows as Row[], rowCount: res.rowCount ?? res.rows.length };
      } catch (error) {
        rethrowClassified('postgres', error);
      }
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async exec(sql) {
      await pool.query(sql).catch((error: unknown) => rethrowClassified('postgres', error));
    },
    async transaction(fn) {
      const client = await pool.connect().catch((error: unknown) => rethrowClassified('postgres', error));
      let broken: Error | undefined;
      try {
        await wrap(client).query('BEGIN');
        const result = await fn(wrap(client));
        await wrap(client).query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        // A connection that timed out or lost its server must not go back to the pool for reuse.
        if (isStorageUnavailable(error)) broken = error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    listen: (channel, handlers) =>
      listenPostgres(channel, { url: options.url, connectionTimeoutMs: options.connectionTimeoutMs ?? 3000 }, handlers),
    close: () => pool.end(),
  };
}

import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database.ts';

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
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 3000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30000,
    statement_timeout: options.statementTimeoutMs ?? 5000,
    query_timeout: options.statementTimeoutMs ?? 5000,
  });
  // An idle client that loses its server emits here; without a listener the process would crash.
  pool.on('error', () => {});
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      const res = await q.query(sql, params);
      return { rows: res.rows as Row[], rowCount: res.rowCount ?? res.rows.length };
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

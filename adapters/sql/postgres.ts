import { createHash } from 'node:crypto';
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

// Postgres parses and plans an unnamed statement at every execution. A named one is parsed once per
// connection and its plan kept, and later executions send only the parameters: on the token paths,
// where the same few statements run for every request, that is most of the database's own work. The
// statements are the service's own constant texts; a bounded number of names guards against any text
// built per call (beyond it, statements go unnamed, as before).
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();
// A statement whose prepared plan the schema outgrew (a `SELECT *` after a migration added a column,
// while this instance still runs: a rolling upgrade) goes unnamed from then on.
const unnamed = new Set<string>();
const PLAN_OUTDATED = '0A000'; // "cached plan must not change result type"

function prepared(text: string, values: unknown[]): pg.QueryConfig {
  // Without parameters (BEGIN, COMMIT, migrations' DDL) the simple protocol, as before.
  if (values.length === 0 || unnamed.has(text)) return { text, values };
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `signin_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
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
  // Not pool.query, which closes the connection after any error, a duplicate key included: the next query
  // then opened a new one and parsed its named statements again, and a sign-up with a registered address
  // answered slower than one with a new address (test/timing). A connection goes back to the pool after
  // an error its server answered, as after a result; one that failed otherwise (lost, timed out) or that
  // its server ended (FATAL) is closed.
  const onPool = {
    async query(statement: pg.QueryConfig): Promise<pg.QueryResult> {
      const client = await pool.connect();
      let broken: Error | undefined;
      const lost = (error: Error) => (broken ??= error);
      client.on('error', lost);
      try {
        return await client.query(statement);
      } catch (error) {
        if (!(error instanceof pg.DatabaseError) || error.severity === 'FATAL' || error.severity === 'PANIC') broken ??= error as Error;
        throw error;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
  };
  const wrap = (q: { query(statement: pg.QueryConfig): Promise<pg.QueryResult> }): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      try {
        const statement = prepared(sql, params);
        const res = await q.query(statement).catch((error: { code?: string }) => {
          if (error?.code !== PLAN_OUTDATED || statement.name === undefined) throw error;
          unnamed.add(sql);
          return q.query({ text: sql, values: params });
        });
        return { rows: res.rows as Row[], rowCount: res.rowCount ?? res.rows.length };
      } catch (error) {
        rethrowClassified('postgres', error);
      }
    },
  });
  return {
    kind: 'postgres',
    ...wrap(onPool),
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

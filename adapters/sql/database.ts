// One small query interface over the two SQL engines we run on: Postgres through a `pg` pool, and
// PGlite (Postgres compiled to WebAssembly) in a data folder, so the same SQL serves both.
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
}

import type { ListenHandlers, Listener } from './listen.ts';

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements separated by semicolons (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction, committed when it resolves and rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * NOTIFYs on `channel`: on Postgres a dedicated connection, so that several instances learn of each
   * other's changes; on PGlite the store's own in-process listeners.
   */
  listen?(channel: string, handlers: ListenHandlers): Listener;
  close(): Promise<void>;
}

// A database that records every statement sent through it, with its parameters, then runs it.
import type { Database } from '../../../adapters/sql/database.ts';

export interface Recorded {
  sql: string;
  params: unknown[];
}

export function recording(db: Database): { db: Database; statements: Recorded[] } {
  const statements: Recorded[] = [];
  const wrapped = Object.create(db) as Database;
  wrapped.query = async (sql, params = []) => {
    statements.push({ sql, params });
    return db.query(sql, params) as never;
  };
  return { db: wrapped, statements };
}

// Versioned migrations: `NNN_name.sql` files applied in order, each in its own transaction, under an
// advisory lock so that several instances starting at once do not race.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_KEY = 727_514_001; // arbitrary, fixed: the advisory lock id of our migrations

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function knownMigrations(): Migration[] {
  return readdirSync(DIR)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort()
    .map((file) => ({
      version: Number.parseInt(file, 10),
      name: file.replace(/^\d+_|\.sql$/g, ''),
      sql: readFileSync(DIR + file, 'utf8'),
    }));
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;

export async function appliedVersions(db: Database): Promise<number[]> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
  if (!exists.rows[0]?.t) return [];
  const res = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return res.rows.map((r) => Number(r.version));
}

/**
 * Applies the migrations not applied yet (up to `upTo`, for a test of a migration's data); returns the
 * versions it applied. Safe to run twice.
 */
export async function migrate(db: Database, options: { upTo?: number } = {}): Promise<number[]> {
  await db.exec(CREATE_TABLE);
  const applied: number[] = [];
  for (const migration of knownMigrations()) {
    if (options.upTo !== undefined && migration.version > options.upTo) break;
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (seen.rowCount > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

export class SchemaError extends Error {
  override name = 'SchemaError';
}

/** Refuses a database whose schema is behind or ahead of this version of the service. */
export async function assertSchemaCurrent(db: Database): Promise<void> {
  const applied = new Set(await appliedVersions(db));
  const known = knownMigrations().map((m) => m.version);
  const missing = known.filter((v) => !applied.has(v));
  const newest = Math.max(0, ...known);
  const ahead = [...applied].filter((v) => v > newest);
  if (ahead.length) {
    throw new SchemaError(
      `the database schema (version ${Math.max(...ahead)}) is newer than this service knows (${newest}); upgrade the service`,
    );
  }
  if (missing.length) {
    throw new SchemaError(`the database schema is not up to date (missing ${missing.join(', ')}); run: signin migrate --config <file>`);
  }
}

// Statements are separated by semicolons at the end of a line; our migrations keep to that.
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}

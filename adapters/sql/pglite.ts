import { existsSync } from 'node:fs';
import { join } from 'node:path';
// A type-only import: erased at run time, so loading this file never loads PGlite.
import type { PGlite } from '@electric-sql/pglite';
import { rethrowClassified } from '../unavailable.ts';
import type { Database, Queryable, QueryResult } from './database.ts';
import { webAssemblyStoreLoading } from './webassembly-store.ts';
import { embeddedTemplate } from './embedded-template.ts';
import { lockDataDir } from './data-dir-lock.ts';

export { DataDirInUseError } from './data-dir-lock.ts';

const PGLITE_PACKAGE = '@electric-sql/pglite';

/**
 * PGlite (27 MB) is an optional dependency: a Postgres deployment may install without it. The message
 * names the config field that asked for it and the two ways out.
 */
export class EmbeddedStoreMissingError extends Error {
  override name = 'EmbeddedStoreMissingError';

  constructor() {
    super(
      `the embedded store (config storage.kind: embedded, the default) needs the optional package ${PGLITE_PACKAGE}, which is not installed: ` +
        `install it with \`npm install ${PGLITE_PACKAGE}\`, or configure Postgres (storage.kind: postgres and storage.postgres.url)`,
    );
  }
}

/** True when `error` says that PGlite itself cannot be found (not a module PGlite failed to load). */
function isPgliteMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${PGLITE_PACKAGE}'`)
  );
}

/** Loads PGlite when the embedded store is opened, and only then (never on the Postgres path). */
async function loadPglite(): Promise<typeof PGlite> {
  // Threads that would run beside it are stopped first (webassembly-store.ts says why).
  await webAssemblyStoreLoading();
  try {
    return (await import('@electric-sql/pglite')).PGlite;
  } catch (error) {
    if (isPgliteMissing(error)) throw new EmbeddedStoreMissingError();
    throw error;
  }
}

/**
 * Postgres's buffer cache lives in the WebAssembly memory, which the process keeps for good: at the
 * default 128 MB it was most of an idle server's memory (about 314 MB against 177 MB for the store
 * alone). A small deployment's tables fit in 16 MB, and the operating system still caches the files.
 */
const EMBEDDED_SETTINGS = ['shared_buffers = 16MB'];

/** Opens the embedded store; `dataDir` of `memory://` keeps everything in memory (tests). */
export async function openPglite(dataDir: string): Promise<Database> {
  const PGliteClass = await loadPglite();
  const inMemory = dataDir.startsWith('memory://');
  const release = inMemory ? () => {} : lockDataDir(dataDir);
  let db: PGlite;
  try {
    // A new store starts from a copy of an empty database rather than from initdb (embedded-template.ts).
    const loadDataDir = inMemory || !existsSync(join(dataDir, 'PG_VERSION')) ? embeddedTemplate() : undefined;
    db = await PGliteClass.create(dataDir, { postgresqlconf: EMBEDDED_SETTINGS, loadDataDir });
  } catch (error) {
    release();
    throw error;
  }
  // A full disk (or a read-only one) is an outage, as on Postgres: a 503 and the outage page, not a 500.
  const classified = (error: unknown) => rethrowClassified('embedded', error);
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      const res = await q.query<Row>(sql, params).catch(classified);
      // PGlite reports affectedRows 0 for a SELECT; the rows returned count there.
      return { rows: res.rows, rowCount: Math.max(res.affectedRows ?? 0, res.rows.length) };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    async exec(sql) {
      await db.exec(sql).catch(classified);
    },
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))).catch(classified),
    // One process owns the store, but a change may still come from outside the service's own objects
    // (SQL run on the same store): the triggers' NOTIFYs reach in-process listeners as on Postgres.
    listen(channel, handlers) {
      let unsubscribe: (() => Promise<void>) | undefined;
      let closed = false;
      const ready = db
        .listen(channel, (payload) => handlers.message(payload))
        .then(async (stop) => {
          unsubscribe = stop;
          if (closed) await stop();
          else handlers.reset();
        })
        .catch(() => {});
      return {
        ready,
        async close() {
          closed = true;
          await unsubscribe?.().catch(() => {});
        },
      };
    },
    async close() {
      await db.close();
      release();
    },
  };
}

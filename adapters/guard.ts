// Guards around the stores, so that every store call of a request:
// - surfaces an outage of its backend as a StorageUnavailableError (the SQL engines classify at the query,
//   openPostgres and openPglite; the Redis adapter calls ioredis in many places, so it is wrapped here whole);
// - ends within the request's storage deadline (storage-deadline.ts), which the edge sets;
// - leaves a trace when the store refused a write (a full disk, a read-only server), which readiness reads:
//   such a store still answers a ping.
import { errors } from 'oidc-provider';
import type { ModelAdapter } from './adapter.ts';
import type { Database, Queryable } from './sql/database.ts';
import { StorageDeadlineError, storageDeadlinePassed, withinStorageDeadline } from './storage-deadline.ts';
import { classified, isStorageUnavailable, storageOutage, type StorageBackend } from './unavailable.ts';

/**
 * How long readiness says "not ready" after a store refused a write. A probe write would not tell: a row
 * that fits on a page with room is written on a full disk, where the next page cannot be added. The
 * requests that met the refusal are the evidence; a load balancer polling every few seconds sees it.
 */
export const WRITE_REFUSAL_MEMORY_MS = 10_000;

// When each store (a guarded Database, a Redis client) last refused a write (performance.now()).
const lastWriteRefusal = new WeakMap<object, number>();

/** Whether `store` refused a write within the last WRITE_REFUSAL_MEMORY_MS. */
export function refusedWritesRecently(store: object, now = performance.now()): boolean {
  const at = lastWriteRefusal.get(store);
  return at !== undefined && now - at < WRITE_REFUSAL_MEMORY_MS;
}

/**
 * Runs one store call within the request's deadline. An error leaves classified (an outage of `backend`, or
 * what it was); a refused write is remembered under `store`.
 */
async function guarded<T>(backend: StorageBackend, store: object, call: () => Promise<T>): Promise<T> {
  try {
    return await withinStorageDeadline(call);
  } catch (error) {
    // The protocol's own answers (a code already used) are not outages.
    if (error instanceof errors.OIDCProviderError) throw error;
    const outage = error instanceof StorageDeadlineError ? storageOutage(backend, error) : classified(backend, error);
    if (isStorageUnavailable(outage) && outage.refusesWrites) lastWriteRefusal.set(store, performance.now());
    throw outage;
  }
}

/** The Redis adapter of one model, guarded; `client` is the Redis client it uses (readiness asks about it). */
export function guardAdapter(backend: StorageBackend, adapter: ModelAdapter, client: object): ModelAdapter {
  const guardedAdapter = {} as Record<keyof ModelAdapter, unknown>;
  for (const name of Object.keys(adapter) as Array<keyof ModelAdapter>) {
    const method = adapter[name] as (...args: unknown[]) => Promise<unknown>;
    guardedAdapter[name] = (...args: unknown[]) => guarded(backend, client, () => method(...args));
  }
  return guardedAdapter as ModelAdapter;
}

/**
 * A SQL store whose every call (a query, a transaction) ends within the request's deadline. A transaction
 * cut short there does not commit: its next statement is refused, and one already sent that returns
 * after the deadline sees its transaction rolled back rather than committed behind an answered 503.
 */
export function guardDatabase(db: Database): Database {
  const backend: StorageBackend = db.kind === 'pglite' ? 'embedded' : 'postgres';
  const store: Database = {
    kind: db.kind,
    query: <Row>(sql: string, params?: unknown[]) => guarded(backend, store, () => db.query<Row>(sql, params)),
    exec: (sql) => guarded(backend, store, () => db.exec(sql)),
    transaction: (fn) =>
      guarded(backend, store, () =>
        db.transaction(async (tx) => {
          const result = await fn(guardQueryable(tx));
          if (storageDeadlinePassed()) throw storageOutage(backend, new StorageDeadlineError());
          return result;
        }),
      ),
    ...(db.listen && { listen: db.listen.bind(db) }),
    close: () => db.close(),
  };
  const guardQueryable = (tx: Queryable): Queryable => ({
    query: <Row>(sql: string, params?: unknown[]) => guarded(backend, store, () => tx.query<Row>(sql, params)),
  });
  return store;
}

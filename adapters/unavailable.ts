// Storage outages as one recognizable error. The engine turns any error it did not expect into a 500
// `server_error`; the HTTP layer needs to tell "Postgres or Redis is unreachable" (a 503 the client may
// retry) apart from a bug (a 500). The drivers' errors are classified here, where they are known, so
// that no layer above has to recognize a pg or ioredis message.

/** `embedded` is PGlite in a data folder: the same SQL as Postgres, in this process, on this machine's disk. */
export type StorageBackend = 'postgres' | 'redis' | 'embedded';

export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  /**
   * The store answers but refuses to write: a full disk, a read-only server. A ping still succeeds, so
   * readiness learns of it from the requests that met it (guard.ts).
   */
  readonly refusesWrites: boolean;

  constructor(
    readonly backend: StorageBackend,
    cause: unknown,
  ) {
    // The driver's message only (a host and port, a file name at most): never a query, a parameter or a token.
    super(`${backend} is unavailable: ${messageOf(cause)}`, { cause });
    this.refusesWrites = refusesWrites(cause);
  }
}

function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (isFilesystemError(cause)) return `file system error ${cause.errno}`;
  return String(cause);
}

/** True for a StorageUnavailableError, or an error caused by one (the engine may wrap). */
export function isStorageUnavailable(error: unknown): error is StorageUnavailableError {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof StorageUnavailableError) return true;
  }
  return false;
}

// SQLSTATE classes that mean "the server cannot serve now", not "the query is wrong":
// 08 connection exception, 53 insufficient resources (53100 a full disk), 57 operator intervention (57014 is
// a statement timeout, 57P01 an admin shutdown, 57P03 "cannot connect now"), 58 system error; and 25006, a
// write on a read-only server (a standby promoted late, or a primary put in read-only mode).
const UNAVAILABLE_SQLSTATE = /^(08|53|57|58|25006$)/;
// Of those, the ones where the server still answers a read: a full disk (53100) and a read-only server.
const WRITES_REFUSED_SQLSTATE = /^(53100|25006)$/;

const sqlstateOf = (error: object): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
};

/**
 * A pg error is an outage when it has no SQLSTATE (socket errors such as ECONNREFUSED, "Connection
 * terminated", the pool's connection timeout, the client's query timeout) or a SQLSTATE of the classes
 * above. A constraint violation or a syntax error is a bug or a conflict, and stays what it is.
 */
export function isPostgresOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const sqlstate = sqlstateOf(error);
  return sqlstate === undefined ? !isProgrammingError(error) : UNAVAILABLE_SQLSTATE.test(sqlstate);
}

/**
 * A PGlite error is an outage for the same SQLSTATEs as Postgres (a full disk reaches its Postgres as
 * "could not extend file ...", 53100), and when its file system refused a write (no space, a quota, a
 * read-only mount) before Postgres could say so. With no network in between, any other error is a bug.
 */
export function isEmbeddedOutage(error: unknown): boolean {
  if (isFilesystemError(error)) return FILESYSTEM_REFUSALS.has(error.errno);
  if (!(error instanceof Error)) return false;
  // Before the SQLSTATE: EROFS has its shape.
  if (isNodeFilesystemRefusal(error)) return true;
  const sqlstate = sqlstateOf(error);
  return sqlstate !== undefined && UNAVAILABLE_SQLSTATE.test(sqlstate);
}

// Node's codes for a write the file system refused, and the same as PGlite's file system layer
// (Emscripten's) numbers them: ENOSPC 51, EDQUOT 19, EROFS 69. Its errors are not Error objects.
const NODE_FILESYSTEM_REFUSALS = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);
const FILESYSTEM_REFUSALS = new Set([51, 19, 69]);

const isNodeFilesystemRefusal = (error: Error): boolean => NODE_FILESYSTEM_REFUSALS.has(String((error as { code?: unknown }).code));

const isFilesystemError = (error: unknown): error is { name: 'ErrnoError'; errno: number } =>
  typeof error === 'object' &&
  error !== null &&
  (error as { name?: unknown }).name === 'ErrnoError' &&
  typeof (error as { errno?: unknown }).errno === 'number';

// Replies of a server that is up but cannot serve: still loading its data, a replica cut from its
// primary, a busy script, a cluster without a master for a slot, a server that refuses writes because it
// could not save its snapshot (MISCONF: a full disk) or reached its maxmemory and evicts nothing (OOM).
// MOVED and ASK are redirections that ioredis follows itself; one that reaches us could not be followed (its
// node is down while a failover is under way). Any other reply error (WRONGTYPE, a script error) is a bug.
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|MOVED|ASK|MISCONF|OOM)\b/;
const WRITES_REFUSED_REPLY = /^(READONLY|MISCONF|OOM)\b/;

/** Whether `cause` (an outage) says the store is up but refuses writes. */
function refusesWrites(cause: unknown): boolean {
  if (isFilesystemError(cause)) return FILESYSTEM_REFUSALS.has(cause.errno);
  if (!(cause instanceof Error)) return false;
  if (cause.name === 'ReplyError') return WRITES_REFUSED_REPLY.test(cause.message);
  if (isNodeFilesystemRefusal(cause)) return true;
  const sqlstate = sqlstateOf(cause);
  return sqlstate !== undefined && WRITES_REFUSED_SQLSTATE.test(sqlstate);
}

/**
 * An ioredis error is an outage unless Redis itself answered with an error: connection closed, stream
 * not writeable (offline queue off), "Command timed out", too many retries all come from the link.
 */
export function isRedisOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ReplyError') return UNAVAILABLE_REPLY.test(error.message);
  return !isProgrammingError(error);
}

/** Errors of our own code (or the engine's), which no outage produces: they stay 500s. */
function isProgrammingError(error: Error): boolean {
  return error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError || 'expose' in error;
}

const OUTAGE_OF: Record<StorageBackend, (error: unknown) => boolean> = {
  postgres: isPostgresOutage,
  redis: isRedisOutage,
  embedded: isEmbeddedOutage,
};

/** `error` as a StorageUnavailableError when it is an outage of `backend`, else as it is. */
export function classified(backend: StorageBackend, error: unknown): unknown {
  if (isStorageUnavailable(error)) return error;
  return OUTAGE_OF[backend](error) ? storageOutage(backend, error) : error;
}

/** Rethrows `error`, as a StorageUnavailableError when it is an outage of `backend`. */
export function rethrowClassified(backend: StorageBackend, error: unknown): never {
  throw classified(backend, error);
}

type OutageObserver = (outage: StorageUnavailableError) => void;
const observers = new Set<OutageObserver>();

/**
 * Calls `observer` with every outage as it is classified, whichever path met it (a protocol endpoint, a
 * page, a sweep): the log writes its cause from there (src/log/storage-outage-log.ts).
 */
export function observeStorageOutages(observer: OutageObserver): void {
  observers.add(observer);
}

/** The StorageUnavailableError for `cause`, an outage of `backend`, made known to the observers. */
export function storageOutage(backend: StorageBackend, cause: unknown): StorageUnavailableError {
  const outage = new StorageUnavailableError(backend, cause);
  for (const observer of observers) {
    try {
      observer(outage);
    } catch {
      // a log line that could not be written must not change the answer
    }
  }
  return outage;
}

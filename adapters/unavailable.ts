// Storage outages as one recognizable error. The engine turns any error it did not expect into a 500
// `server_error`; the HTTP layer needs to tell "Postgres or Redis is unreachable" (a 503 the client may
// retry) apart from a bug (a 500). The drivers' errors are classified here, where they are known, so
// that no layer above has to recognize a pg or ioredis message.

export type StorageBackend = 'postgres' | 'redis';

export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(
    readonly backend: StorageBackend,
    cause: unknown,
  ) {
    // The driver's message only (a host and port at most): never a query, a parameter or a token.
    super(`${backend} is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
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

/**
 * A pg error is an outage when it has no SQLSTATE (socket errors such as ECONNREFUSED, "Connection
 * terminated", the pool's connection timeout, the client's query timeout) or a SQLSTATE of the classes
 * above. A constraint violation or a syntax error is a bug or a conflict, and stays what it is.
 */
export function isPostgresOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const sqlstate = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  return sqlstate === undefined ? !isProgrammingError(error) : UNAVAILABLE_SQLSTATE.test(sqlstate);
}

// Replies of a server that is up but cannot serve: still loading its data, a replica cut from its
// primary, a busy script, a cluster without a master for a slot. MOVED and ASK are redirections that ioredis
// follows itself; one that reaches us could not be followed (its node is down while a failover is under
// way). Any other reply error (WRONGTYPE, a script error) is a bug, not an outage.
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|MOVED|ASK)\b/;

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

/** Rethrows `error`, as a StorageUnavailableError when it is an outage of `backend`. */
export function rethrowClassified(backend: StorageBackend, error: unknown): never {
  if (isStorageUnavailable(error)) throw error;
  const outage = backend === 'postgres' ? isPostgresOutage(error) : isRedisOutage(error);
  throw outage ? new StorageUnavailableError(backend, error) : error;
}

// What every log line of one request shares: its id, the client's IP and the service's logger. Kept in
// an AsyncLocalStorage for the length of the request, so code deep inside the engine's hooks and events
// logs with the right request id without every function passing it along.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

export interface RequestLogContext {
  requestId: string;
  /** The client's IP as the service sees it (X-Forwarded-For only behind a trusted proxy). */
  ip: string;
  /** The logger of the service serving the request. */
  logger: Logger;
}

const storage = new AsyncLocalStorage<RequestLogContext>();

/** Runs `fn` (the rest of the request) with this context. */
export function withRequestContext<T>(context: RequestLogContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request being served, if any. */
export function currentRequest(): RequestLogContext | undefined {
  return storage.getStore();
}

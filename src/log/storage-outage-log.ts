// The cause of a storage outage, for the operator, once per burst. A store that is down or full fails every
// request that needs it for as long as it lasts: each such request has its one `storage.unavailable` event,
// and the cause (the driver's message: the host it could not reach, the file it could not extend) is the
// same for all of them, so it is written when the burst starts, without a stack. A full embedded store
// used to write 1,473 stack traces in 25 s, all saying "No space left on device".
import { currentRequest } from './request-context.ts';
import { defaultLogger } from './logger.ts';

/** What the log needs of an outage (adapters/unavailable.ts's StorageUnavailableError). */
export interface StorageOutageCause {
  backend: string;
  refusesWrites: boolean;
  message: string;
}

/** A burst ends when this long passes without an outage of its kind; the next one is written again. */
export const OUTAGE_BURST_QUIET_MS = 30_000;

// When an outage of each kind (a store, and whether it refused writes or could not be reached) was last met.
const lastMet = new Map<string, number>();

export function logStorageOutageCause(outage: StorageOutageCause, now = performance.now()): void {
  const kind = `${outage.backend}:${outage.refusesWrites ? 'writes refused' : 'unreachable'}`;
  const last = lastMet.get(kind);
  lastMet.set(kind, now);
  if (last !== undefined && now - last < OUTAGE_BURST_QUIET_MS) return;
  const logger = currentRequest()?.logger ?? defaultLogger();
  logger.error({
    msg: 'storage outage',
    backend: outage.backend,
    writes_refused: outage.refusesWrites,
    // The driver's message names no query, parameter or token (unavailable.ts keeps it so).
    cause: outage.message,
    request_id: currentRequest()?.requestId,
  });
}

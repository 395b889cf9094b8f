// Standard output as the loggers write to it: one buffer for the whole process, so that the lines of
// every logger keep their order. A write to a file descriptor is a system call, which costs more than
// the rest of a userinfo or revocation request's logging; so routine lines (the request log) wait until
// 4 KiB have gathered or a second has passed. What an operator must not lose leaves at once: a security
// event, and anything at warn or above. The buffer is written out when the process exits, however it
// exits (a signal handled, an uncaught error); only a process killed outright (SIGKILL) loses what a
// second of routine lines held.
import { pino } from 'pino';

type Destination = ReturnType<typeof pino.destination>;

const BUFFER_BYTES = 4096;
const FLUSH_INTERVAL_MS = 1000;
/** pino's number for `warn`. */
const WARN = 40;

let stdout: Destination | undefined;

export function standardOutput(): Destination {
  if (stdout) return stdout;
  const destination = pino.destination({ dest: 1, sync: true, minLength: BUFFER_BYTES, periodicFlush: FLUSH_INTERVAL_MS });
  process.on('exit', () => destination.flushSync());
  stdout = destination;
  return destination;
}

/** A line that may not wait in the buffer: a security event (it has an `event`), a warning or worse. */
export function writtenAtOnce(level: number, first: unknown): boolean {
  return level >= WARN || (typeof first === 'object' && first !== null && 'event' in first);
}

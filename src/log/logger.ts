// The service's logger: pino, one JSON object per line, with an ISO time and the level as a word, so a
// line reads the same in a terminal and in a log pipeline. In development the lines can be written as
// readable text instead (pretty-lines.ts); the content is the same.
import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyLines } from './pretty-lines.ts';
import { standardOutput, writtenAtOnce } from './standard-output.ts';

export type { DestinationStream, Logger } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface LoggerOptions {
  level: LogLevel;
  /** Readable text lines instead of JSON. */
  pretty: boolean;
  /** Where the lines go; stdout by default. Tests pass a stream that keeps them. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const stdout = options.destination === undefined ? standardOutput() : undefined;
  const destination = options.destination ?? stdout!;
  return pino(
    {
      level: options.level,
      // No pid or hostname: the line carries the request id, and a container's log driver names the host.
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Standard output keeps routine lines (one per request) in a small buffer; a security event, a
      // warning or an error, and every line of a developer's terminal, leave at once (standard-output.ts).
      ...(stdout && {
        hooks: {
          logMethod(args, method, level) {
            method.apply(this, args);
            // flush(), not flushSync(): the same synchronous write, without the fsync that flushSync adds,
            // which on a log file stalled the event loop on the disk at every sign-in. Once written, a line
            // survives the process (a crash, a SIGKILL); only the machine's own crash could lose it.
            if (options.pretty || writtenAtOnce(level, args[0])) stdout.flush();
          },
        },
      }),
    },
    options.pretty ? prettyLines(destination) : destination,
  );
}

let fallback: Logger | undefined;

/** The process's logger for lines written outside any request of a service: JSON on stdout. */
export function defaultLogger(): Logger {
  fallback ??= createLogger({ level: 'info', pretty: false });
  return fallback;
}

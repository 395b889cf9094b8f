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

/** A line's fields: a flat object of strings and numbers (no error, no nested object). */
export type LineFields = Record<string, string | number | undefined>;
export type RoutineLevel = 'info' | 'debug';
/** Writes one routine line through a logger: what the request log uses, once per request. */
export type RoutineLine = (level: RoutineLevel, fields: LineFields) => void;

// The routine-line writer of each logger made here (routineLines below).
const routineWriters = new WeakMap<Logger, RoutineLine>();

export function createLogger(options: LoggerOptions): Logger {
  const stdout = options.destination === undefined ? standardOutput() : undefined;
  const destination = options.destination ?? stdout!;
  const stream = options.pretty ? prettyLines(destination) : destination;
  const logger = pino(
    {
      level: options.level,
      // No pid or hostname: the line carries the request id, and a container's log driver names the host.
      base: undefined,
      timestamp: isoTime,
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
    stream,
  );
  // The same line pino would write ({"level":"info","time":"…",…}), serialized by JSON.stringify in one
  // call: a flat object of a few strings and numbers needs none of pino's per-field work (3.5 µs of a
  // userinfo call, docs/architecture/decisions.md). It goes to the same stream, so lines keep their order.
  routineWriters.set(logger, (level, fields) => {
    if (!logger.isLevelEnabled(level)) return;
    const body = JSON.stringify(fields);
    stream.write(`{"level":"${level}"${isoTime()}${body.length > 2 ? `,${body.slice(1)}` : '}'}\n`);
    if (options.pretty) stdout?.flush();
  });
  return logger;
}

/**
 * How to write routine lines (no error, flat fields) through `logger`: straight to its stream for a logger
 * made by createLogger, through the logger itself for any other.
 */
export function routineLines(logger: Logger): RoutineLine {
  return routineWriters.get(logger) ?? ((level, fields) => logger[level](fields));
}

// pino's ISO time, built once per millisecond: under load, many lines share one.
let lastMillisecond = 0;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMillisecond) {
    lastMillisecond = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

let fallback: Logger | undefined;

/** The process's logger for lines written outside any request of a service: JSON on stdout. */
export function defaultLogger(): Logger {
  fallback ??= createLogger({ level: 'info', pretty: false });
  return fallback;
}

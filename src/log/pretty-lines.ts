// Readable log lines for a terminal, from pino's JSON ones: "12:04:05 WARN sign_in.failure reason=…".
// A few lines of formatting rather than pino-pretty and its dependencies, which production never needs.
import type { DestinationStream } from 'pino';

const FIRST = ['time', 'level', 'event', 'msg', 'err'];
// Printed as is; anything else (spaces, quotes, line breaks a caller could use to forge a line) quoted.
const PLAIN = /^[\x21-\x7e]*$/;
const PLAIN_TITLE = /^[\x20-\x7e]*$/;

/** A destination that rewrites each JSON line as text before passing it on. */
export function prettyLines(destination: DestinationStream): DestinationStream {
  return {
    write(line: string) {
      destination.write(formatLine(line));
    },
  };
}

export function formatLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  const level = String(entry.level ?? '')
    .toUpperCase()
    .padEnd(5);
  const title = entry.event ?? entry.msg ?? '';
  const head = [time, level, typeof title === 'string' && PLAIN_TITLE.test(title) ? title : JSON.stringify(title)]
    .filter((part) => part !== '')
    .join(' ');
  const fields = Object.entries(entry)
    .filter(([key, value]) => !FIRST.includes(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' && PLAIN.test(value) ? value : JSON.stringify(value)}`);
  const stack = (entry.err as { stack?: unknown } | undefined)?.stack;
  return `${[head, ...fields].join(' ')}\n${typeof stack === 'string' ? `${stack}\n` : ''}`;
}

// Warnings written outside the log: the engine prints its notices and warnings with console.info and
// console.warn ("oidc-provider WARNING: ..."), and Node prints process warnings (deprecations, experimental
// features) as "(node:123) Warning: ...". In a stream of JSON lines each would be the one line a log
// pipeline cannot read. They are written through the service's logger instead, as a `warn` line.
import type { Logger } from 'pino';

const ENGINE_PREFIX = /^oidc-provider (WARNING|NOTICE): /;
// The engine colours its lines on a terminal.
const COLOURS = /\x1b\[[0-9;]*m/g;

const loggers: Logger[] = [];
let original: { warn: typeof console.warn; info: typeof console.info } | undefined;

function engineLine(args: unknown[]): string | undefined {
  if (args.length !== 1 || typeof args[0] !== 'string') return undefined;
  const text = args[0].replace(COLOURS, '');
  return ENGINE_PREFIX.test(text) ? text : undefined;
}

function intercept(kind: 'warn' | 'info'): (...args: unknown[]) => void {
  return (...args) => {
    const text = engineLine(args);
    const logger = loggers.at(-1);
    if (text === undefined || !logger) return original![kind](...args);
    logger.warn({ msg: text.replace(ENGINE_PREFIX, ''), source: 'engine', notice: /^oidc-provider NOTICE/.test(text) ? true : undefined });
  };
}

/**
 * Routes the engine's console lines through `logger` (the latest service's, when several run in one
 * process) until the returned function is called. Other console lines are left as they are.
 */
export function routeEngineWarnings(logger: Logger): () => void {
  if (!original) {
    original = { warn: console.warn, info: console.info };
    console.warn = intercept('warn');
    console.info = intercept('info');
  }
  loggers.push(logger);
  return () => {
    const at = loggers.lastIndexOf(logger);
    if (at >= 0) loggers.splice(at, 1);
  };
}

/**
 * Node's process warnings through `logger` instead of its own printer: for the standalone server, whose
 * process is ours. Until the returned function is called, which gives the printer back.
 */
export function routeProcessWarnings(logger: Logger): () => void {
  const printers = process.listeners('warning');
  for (const printer of printers) process.off('warning', printer);
  const write = (warning: Error & { code?: string }) => logger.warn({ msg: warning.message, warning: warning.name, code: warning.code });
  process.on('warning', write);
  return () => {
    process.off('warning', write);
    for (const printer of printers) process.on('warning', printer);
  };
}

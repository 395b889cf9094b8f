// Option parsing shared by every command: `node:util` parseArgs in strict mode, with its errors
// rewritten as one short line that names the option, since its own messages are long and vary.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { didYouMean } from '../config/did-you-mean.ts';
import { UsageError } from './command-errors.ts';

/** Options every command accepts. */
export const COMMON_OPTIONS = {
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

export const JSON_OPTION = { json: { type: 'boolean' } } as const satisfies ParseArgsOptionsConfig;

export function parseCommand<O extends ParseArgsOptionsConfig>(args: string[], options: O, helpCommand: string) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(describeParseError(error as Error & { code?: string }, Object.keys(options)), helpCommand);
  }
}

function describeParseError(error: Error & { code?: string }, known: string[]): string {
  // parseArgs quotes the culprit first, e.g. "Option '--email <value>' argument missing".
  const quoted = /'([^']+)'/.exec(error.message)?.[1]?.split(' ')[0] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted}${didYouMean(
        quoted,
        known.map((name) => `--${name}`),
      )}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `option ${quoted.replace(/^-\w, /, '')} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${quoted}`;
    default:
      return error.message.split('\n')[0];
  }
}

/** The value of a required string option; its absence is a usage error naming it. */
export function requireOption<T>(value: T | undefined, name: string, helpCommand: string): T {
  if (value === undefined) throw new UsageError(`missing required option --${name}`, helpCommand);
  return value;
}

/** Checks the positional arguments against the names the command expects, e.g. ['CLIENT_ID']. */
export function expectPositionals(positionals: string[], names: string[], helpCommand: string): string[] {
  if (positionals.length < names.length) throw new UsageError(`missing argument ${names[positionals.length]}`, helpCommand);
  if (positionals.length > names.length) throw new UsageError(`unexpected argument ${positionals[names.length]}`, helpCommand);
  return positionals;
}

/** A TCP port given as text (an option or an environment variable); `source` names it in the error. */
export function parsePort(raw: string, source: string, helpCommand: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new UsageError(`${source} must be a number from 0 to 65535, not ${raw}`, helpCommand);
  return port;
}

// The `signin` admin CLI: dispatch to the command groups, and the one place where errors become
// messages and exit codes. Importable (tests call `run`); `entry.ts` runs it as a program.
import { ConfigError } from '../config/config-error.ts';
import { didYouMean } from '../config/did-you-mean.ts';
import { SchemaError } from '../../adapters/sql/migrate.ts';
import { EmbeddedStoreMissingError } from '../../adapters/sql/pglite.ts';
import { runClient } from './client.ts';
import { runFedcm } from './fedcm.ts';
import { CommandError, UsageError } from './command-errors.ts';
import { MAIN_HELP } from './help.ts';
import { runInit } from './init.ts';
import { runKeys } from './keys.ts';
import type { CliIo, Command } from './io.ts';
import { runMigrate } from './migrate.ts';
import { printHelp, printLine } from './output.ts';
import { runServe } from './serve.ts';
import { runUser } from './user.ts';
import { packageVersion } from './version.ts';

export type { CliIo } from './io.ts';

const GROUPS: Record<string, Command> = {
  init: runInit,
  migrate: runMigrate,
  serve: runServe,
  user: runUser,
  client: runClient,
  keys: runKeys,
  fedcm: runFedcm,
};

/** Runs one command line (without `node` and the script) and returns its exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    const [group, ...rest] = argv;
    if (group === undefined) throw new UsageError('missing command');
    if (group === '--help' || group === '-h' || group === 'help') return printHelp(io, MAIN_HELP);
    if (group === '--version') {
      printLine(io, packageVersion());
      return 0;
    }
    const command = Object.hasOwn(GROUPS, group) ? GROUPS[group] : undefined;
    if (!command) {
      if (group.startsWith('-')) throw new UsageError(`unknown option ${group}${didYouMean(group, ['--help', '--version'])}`);
      throw new UsageError(`unknown command ${group}${didYouMean(group, Object.keys(GROUPS))}`);
    }
    return await command(rest, io);
  } catch (error) {
    return report(error, io);
  }
}

function report(error: unknown, io: CliIo): number {
  if (error instanceof UsageError) {
    io.stderr(`signin: ${error.message} (see '${error.helpCommand}')\n`);
    return 2;
  }
  if (error instanceof ConfigError) {
    io.stderr(`signin: ${error.message}\n`);
    return 2;
  }
  if (error instanceof CommandError || error instanceof SchemaError || error instanceof EmbeddedStoreMissingError) {
    io.stderr(`signin: ${error.message.replaceAll('\n', '\nsignin: ')}\n`);
    return 1;
  }
  // Not foreseen: a bug or a broken environment. The stack helps then, but only on request.
  const detail = io.env.SIGNIN_DEBUG && error instanceof Error ? error.stack : String((error as Error)?.message ?? error);
  io.stderr(`signin: unexpected error: ${detail}\n${io.env.SIGNIN_DEBUG ? '' : 'signin: set SIGNIN_DEBUG=1 for details\n'}`);
  return 1;
}

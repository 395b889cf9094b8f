// `signin serve`: the standalone server, until SIGTERM or SIGINT stops it gracefully (exit 0).
import { drainSecondsOf, startServer, stopOnSignals } from '../server.ts';
import { COMMON_OPTIONS, expectPositionals, parseCommand, parsePort } from './args.ts';
import { CommandError } from './command-errors.ts';
import { SERVE_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { releaseYoungGeneration } from './young-generation.ts';
import { cliConfigPath, loadCliConfig } from './open-stores.ts';
import { printHelp, printLine } from './output.ts';

const HELP_COMMAND = 'signin serve --help';
const OPTIONS = { ...COMMON_OPTIONS, port: { type: 'string' } } as const;

export async function runServe(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, SERVE_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const config = loadCliConfig(values.config, io);
  // The command line wins over the environment (PORT, as platforms that assign a port set it), which
  // wins over the file.
  const port =
    values.port !== undefined
      ? parsePort(values.port, 'option --port', HELP_COMMAND)
      : io.env.PORT
        ? parsePort(io.env.PORT, 'PORT', HELP_COMMAND)
        : config.port;

  const running = await startServer(config, { port }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CommandError(`cannot listen on port ${port}: it is already in use`);
    if (code === 'EACCES') throw new CommandError(`cannot listen on port ${port}: permission denied`);
    throw error;
  });
  // Started: from here on the young generation follows the load (young-generation.ts).
  releaseYoungGeneration();
  printLine(io, `sign-in service listening on ${running.url} (issuer ${config.issuer}, storage ${config.storage.kind})`);
  if (!config.production && !cliConfigPath(values.config, io)) {
    printLine(io, 'development defaults in use: run `signin init` to write a config file with fresh secrets');
  }
  return stopOnSignals(running, drainSecondsOf(config), (line) => printLine(io, line));
}

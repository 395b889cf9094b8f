// `signin serve`: the standalone server, until SIGTERM or SIGINT stops it gracefully (exit 0).
import { ConfigError } from '../config/config-error.ts';
import { issuerForPort } from '../config/dev-issuer.ts';
import { routeProcessWarnings } from '../log/engine-warnings.ts';
import type { SignInConfig } from '../config/schema.ts';
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
  const loaded = loadCliConfig(values.config, io);
  // The command line wins over the environment (PORT, as platforms that assign a port set it), which
  // wins over the file.
  const port =
    values.port !== undefined
      ? parsePort(values.port, 'option --port', HELP_COMMAND)
      : io.env.PORT
        ? parsePort(io.env.PORT, 'PORT', HELP_COMMAND)
        : loaded.port;
  // A development issuer on this machine moves with the port (dev-issuer.ts).
  const config = { ...loaded, issuer: issuerForPort(loaded, port) };

  const running = await startServer(config, { port }).catch((error: unknown) => {
    if (error instanceof ConfigError) throw withDevelopmentStoreHint(error, config);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CommandError(`cannot listen on port ${port}: it is already in use`);
    if (code === 'EACCES') throw new CommandError(`cannot listen on port ${port}: permission denied`);
    throw error;
  });
  // Started: from here on the young generation follows the load (young-generation.ts).
  releaseYoungGeneration();
  // With JSON logs, the server's own lines and Node's warnings are log lines too: every line is JSON.
  const { logger } = running.service;
  const json = !(config.log.pretty ?? !config.production);
  const say = json ? (line: string) => logger.info({ msg: line }) : (line: string) => printLine(io, line);
  const stopProcessWarnings = json ? routeProcessWarnings(logger) : () => {};
  say(`sign-in service listening on ${running.url} (issuer ${config.issuer}, storage ${config.storage.kind})`);
  if (!config.production && !cliConfigPath(values.config, io)) {
    say('development defaults in use: run `signin init` to write a config file with fresh secrets');
  }
  try {
    return await stopOnSignals(running, drainSecondsOf(config), say);
  } finally {
    stopProcessWarnings();
  }
}

/**
 * A development store whose signing keys were encrypted with other secrets (`signin init` after a first
 * `npm start` writes a new keyEncryptionKey) holds nothing worth keeping: say that it can be deleted.
 */
function withDevelopmentStoreHint(error: ConfigError, config: SignInConfig): ConfigError {
  const { storage } = config;
  if (config.production || storage.kind !== 'embedded' || !error.problems.some((p) => p.field === 'secrets.keyEncryptionKey')) {
    return error;
  }
  return new ConfigError([
    ...error.problems,
    {
      field: 'storage.dataDir',
      message:
        `${storage.dataDir} was created with other secrets (the development defaults, or an earlier \`signin init\`); ` +
        `if it holds only development data, delete it (rm -r ${storage.dataDir}) and start again: a new store is created`,
    },
  ]);
}

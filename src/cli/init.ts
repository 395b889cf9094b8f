// `signin init`: writes a config file with fresh secrets, checked by the same loader the server
// uses before anything is written.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CONFIG_ENV, parseConfig } from '../config/load.ts';
import { DEFAULT_PORT } from '../config/schema.ts';
import { loadKeysFromFile } from '../keys/signing-keys.ts';
import { COMMON_OPTIONS, expectPositionals, parseCommand, parsePort } from './args.ts';
import { configTemplate, EMBEDDED_DATA_DIR } from './config-template.ts';
import { CommandError } from './command-errors.ts';
import { INIT_HELP } from './help.ts';
import { DEFAULT_CONFIG_FILE } from './open-stores.ts';
import type { CliIo } from './io.ts';
import { printHelp, printLine } from './output.ts';
import { startCommand } from './start-command.ts';

const HELP_COMMAND = 'signin init --help';
const OPTIONS = {
  ...COMMON_OPTIONS,
  issuer: { type: 'string' },
  port: { type: 'string' },
  'keys-file': { type: 'string' },
  force: { type: 'boolean' },
} as const;

// 32 random bytes (256 bits), 43 base64url characters: above the schema's 32-character minimum.
const secret = (): string => randomBytes(32).toString('base64url');

export async function runInit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, INIT_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const target = resolve(values.config ?? (io.env[CONFIG_ENV] || DEFAULT_CONFIG_FILE));
  if (existsSync(target) && !values.force) {
    throw new CommandError(`${target} already exists; use --force to overwrite it (its secrets would be replaced)`);
  }

  const keysFile = values['keys-file'];
  const issuer = values.issuer ?? `http://localhost:${DEFAULT_PORT}`;
  const text = configTemplate({
    issuer,
    port: values.port === undefined ? portOf(issuer) : parsePort(values.port, 'option --port', HELP_COMMAND),
    cookieKey: secret(),
    pairwiseSalt: secret(),
    keyEncryptionKey: secret(),
    keysFile,
  });
  // A bad --issuer throws ConfigError (exit 2) here, naming the field, before any file exists.
  parseConfig(parseYaml(text), io.env, target);

  // Existing keys in the file are kept: replacing them would invalidate the ID tokens they signed.
  if (keysFile) await loadKeysFromFile(keysFile, ['RS256', 'ES256']);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text, { flag: values.force ? 'w' : 'wx', mode: 0o600 });
  chmodSync(target, 0o600); // `mode` applies only to a new file; an overwritten one may have been readable

  printLine(io, `wrote ${target} (keep it private: it holds secrets)`);
  printLine(io, keysFile ? `signing keys: ${resolve(keysFile)}` : 'signing keys: generated at first start and kept in the database');
  // The file names the embedded store in ./data: one left by an earlier start was made with other secrets.
  if (existsSync(join(EMBEDDED_DATA_DIR, 'PG_VERSION'))) {
    printLine(
      io,
      `note: ${EMBEDDED_DATA_DIR} holds an embedded store made with other secrets, which this file's keyEncryptionKey cannot read; ` +
        `if it holds only development data, delete it (rm -r ${EMBEDDED_DATA_DIR}) before starting`,
    );
  }
  // The file names the embedded store, which is migrated at start; a Postgres one needs `signin migrate`.
  printLine(io, `next: ${startCommand(target)}`);
  return 0;
}

/**
 * The port the issuer names, when it names one (`http://127.0.0.1:4801` listens on 4801): the server
 * is then reachable at its own issuer without a proxy. Otherwise (a default port, usually behind a
 * reverse proxy that terminates TLS) the schema's default.
 */
function portOf(issuer: string): number {
  const port = URL.parse(issuer)?.port;
  return port ? Number(port) : DEFAULT_PORT;
}

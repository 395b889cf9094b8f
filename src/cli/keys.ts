// `signin keys ...`: lists, rotates and retires the signing keys, wherever they live (the database or
// a JWKS file). Running instances pick the changes up by themselves (src/keys/key-watcher.ts).
import type { SignInConfig } from '../config/schema.ts';
import {
  KeyScheduleError,
  keySource,
  replaceSigningKeys,
  retireSigningKey,
  rotateSigningKeys,
  scheduleKeys,
  type KeySource,
  type Replacement,
  type ScheduledKey,
  type SigningAlgorithm,
} from '../keys/signing-keys.ts';
import { COMMON_OPTIONS, JSON_OPTION, expectPositionals, parseCommand } from './args.ts';
import { CommandError, UsageError } from './command-errors.ts';
import { KEYS_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { cliEvent } from '../log/cli-events.ts';
import { loadCliConfig, withStores } from './open-stores.ts';
import { printHelp, printJson, printLine } from './output.ts';
import { didYouMean } from '../config/did-you-mean.ts';

const HELP_COMMAND = 'signin keys --help';
const LIST_OPTIONS = { ...COMMON_OPTIONS, ...JSON_OPTION } as const;
const ROTATE_OPTIONS = {
  ...LIST_OPTIONS,
  alg: { type: 'string', multiple: true },
  delay: { type: 'string' },
  now: { type: 'boolean' },
  'retire-old': { type: 'boolean' },
} as const;
const RETIRE_OPTIONS = { ...COMMON_OPTIONS, force: { type: 'boolean' } } as const;
const ALGORITHMS: readonly SigningAlgorithm[] = ['RS256', 'ES256', 'EdDSA'];

const ACTIONS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  list: listKeys,
  rotate: rotateKeys,
  retire: retireKey,
};

export async function runKeys(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError(`missing command: signin keys ${Object.keys(ACTIONS).join('|')}`, HELP_COMMAND);
  if (action === '--help' || action === '-h') return printHelp(io, KEYS_HELP);
  const handler = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!handler) throw new UsageError(`unknown command: signin keys ${action}${didYouMean(action, Object.keys(ACTIONS))}`, HELP_COMMAND);
  return handler(rest, io);
}

/** A JWKS file needs no database; keys in the database need it open for the length of `fn`. */
async function withKeySource<T>(config: SignInConfig, fn: (source: KeySource) => Promise<T>): Promise<T> {
  const run = async (source: KeySource): Promise<T> => {
    try {
      return await fn(source);
    } catch (error) {
      if (error instanceof KeyScheduleError) throw new CommandError(error.message);
      throw error;
    }
  };
  if (config.keys.source === 'file') return run(keySource(config));
  return withStores(config, ({ db }) => run(keySource(config, db)));
}

async function listKeys(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, LIST_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, KEYS_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const config = loadCliConfig(values.config, io);
  const now = new Date();
  const keys = sorted(scheduleKeys(await withKeySource(config, (source) => source.read()), now));
  if (values.json)
    printJson(
      io,
      keys.map((key) => keyView(key, config)),
    );
  else
    printLine(
      io,
      keys.length
        ? keyTable(keys, config)
        : `no signing keys yet in ${config.keys.source === 'file' ? config.keys.file : 'the database'}: they are generated at the first start`,
    );
  return 0;
}

async function rotateKeys(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, ROTATE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, KEYS_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const algorithms = values.alg?.map((alg) => {
    if (!ALGORITHMS.includes(alg as SigningAlgorithm))
      throw new UsageError(`option --alg must be one of ${ALGORITHMS.join(', ')}, not ${alg}`, HELP_COMMAND);
    return alg as SigningAlgorithm;
  });
  if (values.delay !== undefined && !/^\d+$/.test(values.delay)) {
    throw new UsageError(`option --delay must be a number of seconds, not ${values.delay}`, HELP_COMMAND);
  }
  if (values.now && values.delay !== undefined) throw new UsageError('options --now and --delay exclude each other', HELP_COMMAND);
  // Retiring the key that signs while its successor still waits would leave the waiting key to sign at once.
  if (values['retire-old'] && !values.now) throw new UsageError('option --retire-old goes with --now', HELP_COMMAND);
  if (values.now) return replaceKeys(values, algorithms, io);
  const config = loadCliConfig(values.config, io);
  const delaySeconds = values.delay === undefined ? config.keys.rotationDelaySeconds : Number(values.delay);
  const added = await withKeySource(config, (source) => rotateSigningKeys(source, { now: new Date(), delaySeconds, algorithms }));
  for (const key of added) cliEvent(io, 'signing_key.rotated', { key_id: key.kid, alg: key.alg });
  if (values.json) {
    printJson(
      io,
      added.map((key) => ({ kid: key.kid, alg: key.alg, activates_at: key.activatesAt?.toISOString() ?? null })),
    );
    return 0;
  }
  for (const key of added) {
    const when = delaySeconds === 0 ? 'signs from now on' : `signs from ${key.activatesAt?.toISOString()}`;
    printLine(io, `new ${key.alg} key ${key.kid}: published now, ${when}`);
  }
  printLine(
    io,
    'Running instances pick it up by themselves. Retire the old key with `signin keys retire KID` once the ID tokens it signed have expired.',
  );
  return 0;
}

/** `rotate --now`: new keys sign at once, whatever was scheduled; `--retire-old` also retires the keys they replace. */
async function replaceKeys(
  values: { config?: string; json?: boolean; 'retire-old'?: boolean },
  algorithms: SigningAlgorithm[] | undefined,
  io: CliIo,
): Promise<number> {
  const config = loadCliConfig(values.config, io);
  const retireOld = values['retire-old'] === true;
  const replaced: Replacement = await withKeySource(config, (source) =>
    replaceSigningKeys(source, { now: new Date(), algorithms, retireOld }),
  );
  for (const key of replaced.added) cliEvent(io, 'signing_key.rotated', { key_id: key.kid, alg: key.alg, reason: 'at_once' });
  for (const key of replaced.cancelled)
    cliEvent(io, 'signing_key.retired', { key_id: key.kid, alg: key.alg, reason: 'rotation_cancelled' });
  for (const key of replaced.retired) cliEvent(io, 'signing_key.retired', { key_id: key.kid, alg: key.alg, reason: 'forced' });
  if (values.json) {
    printJson(io, {
      added: replaced.added.map((key) => ({ kid: key.kid, alg: key.alg, activates_at: key.activatesAt?.toISOString() ?? null })),
      cancelled: replaced.cancelled.map((key) => ({ kid: key.kid, alg: key.alg })),
      retired: replaced.retired.map((key) => ({ kid: key.kid, alg: key.alg })),
    });
    return 0;
  }
  for (const key of replaced.added) printLine(io, `new ${key.alg} key ${key.kid}: published and signing from now on`);
  for (const key of replaced.cancelled) printLine(io, `cancelled ${key.alg} key ${key.kid}: it waited to sign, it leaves the JWKS`);
  for (const key of replaced.retired) {
    printLine(io, `retired ${key.alg} key ${key.kid}: it leaves the JWKS, and the ID tokens it signed no longer verify`);
  }
  printLine(
    io,
    retireOld
      ? 'Running instances pick the change up by themselves.'
      : 'Running instances pick it up by themselves. The replaced key still verifies the tokens it signed: retire it with `signin keys retire KID --force` if it leaked.',
  );
  return 0;
}

async function retireKey(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, RETIRE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, KEYS_HELP);
  const [kid] = expectPositionals(positionals, ['KID'], HELP_COMMAND);
  const config = loadCliConfig(values.config, io);
  const options = { now: new Date(), idTokenTtlSeconds: config.ttl.idToken, force: values.force };
  const key = await withKeySource(config, (source) => retireSigningKey(source, kid, options));
  cliEvent(io, 'signing_key.retired', { key_id: kid, alg: key.alg, ...(values.force ? { reason: 'forced' } : {}) });
  printLine(io, `retired ${key.alg} key ${kid}: it leaves the JWKS${key.state === 'next' ? ' before it ever signed' : ''}`);
  return 0;
}

const STATE_ORDER = ['active', 'next', 'previous', 'retired'];

/** RS256 first, then by algorithm; within one, active, waiting, previous, retired, newest first. */
function sorted(keys: ScheduledKey[]): ScheduledKey[] {
  const algRank = (k: ScheduledKey) => (k.alg === 'RS256' ? '' : k.alg);
  const start = (k: ScheduledKey) => k.activatesAt?.getTime() ?? 0;
  return [...keys].sort(
    (a, b) => algRank(a).localeCompare(algRank(b)) || STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state) || start(b) - start(a),
  );
}

/** When a previous key may be retired without --force: its last ID tokens have expired. */
function retirableAt(key: ScheduledKey, config: SignInConfig): Date | undefined {
  if (key.state !== 'previous') return undefined;
  return new Date((key.supersededAt?.getTime() ?? 0) + config.ttl.idToken * 1000);
}

const iso = (date: Date | undefined): string | null => date?.toISOString() ?? null;

function keyView(key: ScheduledKey, config: SignInConfig) {
  return {
    kid: key.kid,
    alg: key.alg,
    state: key.state,
    created_at: iso(key.createdAt),
    activates_at: iso(key.activatesAt),
    superseded_at: iso(key.supersededAt),
    retirable_at: iso(retirableAt(key, config)),
    retired_at: iso(key.retiredAt),
  };
}

function keyTable(keys: ScheduledKey[], config: SignInConfig): string {
  const day = (date: Date | undefined): string => (date ? date.toISOString().slice(0, 16).replace('T', ' ') : '-');
  const note = (key: ScheduledKey): string => {
    if (key.state === 'next') return `signs from ${day(key.activatesAt)}`;
    if (key.state === 'previous') return `verifies only; retire from ${day(retirableAt(key, config))}`;
    if (key.state === 'retired') return `retired ${day(key.retiredAt)}`;
    return '';
  };
  const rows = [['KID', 'ALG', 'STATE', 'CREATED', ''], ...keys.map((k) => [k.kid, k.alg, k.state, day(k.createdAt), note(k)])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

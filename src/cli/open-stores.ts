// Config and database for the commands that need them. The embedded store belongs to one machine, so
// the CLI migrates it on the fly; a shared Postgres is migrated only on purpose (`signin migrate`),
// because an older server instance may still be running against it.
import { AccountStore } from '../accounts/store.ts';
import { ClientRegistry } from '../clients/registry.ts';
import { existsSync } from 'node:fs';
import { CONFIG_ENV, loadConfig, loadConfigSections } from '../config/load.ts';
import type { SignInConfig } from '../config/schema.ts';
import { openDatabase, openStorage, type Storage } from '../../adapters/storage.ts';
import type { Cluster, Redis } from 'ioredis';
import type { AdapterFactory } from '../../adapters/adapter.ts';
import { ConsentStore } from '../consents/store.ts';
import type { Database } from '../../adapters/sql/database.ts';
import { appliedVersions, assertSchemaCurrent, knownMigrations, migrate, type Migration } from '../../adapters/sql/migrate.ts';
import { CommandError } from './command-errors.ts';
import type { CliIo } from './io.ts';

/** The file `signin init` writes when told no other, and the one every command reads when present. */
export const DEFAULT_CONFIG_FILE = 'signin.yaml';

/** `--config`, else SIGNIN_CONFIG, else ./signin.yaml when it exists; undefined: the development defaults. */
export function cliConfigPath(path: string | undefined, io: Pick<CliIo, 'env'>): string | undefined {
  return path ?? (io.env[CONFIG_ENV] || (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined));
}

/** The config a command runs with (see cliConfigPath); a bad file throws ConfigError. */
export const loadCliConfig = (path: string | undefined, io: CliIo): SignInConfig =>
  // An empty path is "no file" to loadConfig, which would otherwise read SIGNIN_CONFIG itself.
  loadConfig(cliConfigPath(path, io) ?? '', io.env);

/** What a command that only opens the stores reads of the config (withStores). */
export type StoresConfig = Pick<SignInConfig, 'storage'>;
/** What a command that revokes what was issued reads of it (withEngineStores). */
export type EngineStoresConfig = Pick<SignInConfig, 'storage' | 'ttl'>;

/**
 * Only the storage section of the config, for the commands that only open the stores: the other sections'
 * environment variables (the SMTP password, the metrics token) need not be set to list users.
 */
export const loadStoresConfig = (path: string | undefined, io: CliIo): StoresConfig =>
  loadConfigSections(cliConfigPath(path, io) ?? '', ['storage'], io.env);

/** The storage and lifetimes sections, for the commands that revoke grants and tokens. */
export const loadEngineStoresConfig = (path: string | undefined, io: CliIo): EngineStoresConfig =>
  loadConfigSections(cliConfigPath(path, io) ?? '', ['storage', 'ttl'], io.env);

export async function openCliDatabase(config: StoresConfig): Promise<Database> {
  let db: Database | undefined;
  try {
    db = await openDatabase(config.storage);
    // A pg pool connects lazily: probe now, so that an unreachable server is reported as such.
    await db.query('SELECT 1');
    return db;
  } catch (cause) {
    await db?.close().catch(() => {});
    throw cannotOpen(config, cause);
  }
}

function cannotOpen(config: StoresConfig, cause: unknown): CommandError {
  // Name the store but not a Postgres URL, which may hold a password.
  const where = config.storage.kind === 'embedded' ? `embedded store ${config.storage.dataDir}` : 'Postgres';
  return new CommandError(`cannot open the database (${where}): ${(cause as Error).message}`);
}

/** The known migrations this database has not applied yet. */
export async function pendingMigrations(db: Database): Promise<Migration[]> {
  const applied = new Set(await appliedVersions(db));
  return knownMigrations().filter((m) => !applied.has(m.version));
}

/**
 * Brings the schema up to date and returns the versions applied. Nothing is run when none is
 * pending, so that a routine command opens no transaction and takes no migration lock.
 */
export async function applyPendingMigrations(db: Database): Promise<number[]> {
  return (await pendingMigrations(db)).length ? migrate(db) : [];
}

/** Migrates an embedded store; refuses a Postgres schema that is not current (SchemaError). */
export async function prepareSchema(db: Database, kind: SignInConfig['storage']['kind']): Promise<void> {
  if (kind === 'embedded') await applyPendingMigrations(db);
  else await assertSchemaCurrent(db);
}

export interface Stores {
  db: Database;
  accounts: AccountStore;
  clients: ClientRegistry;
  consents: ConsentStore;
}

/** Runs `fn` with the stores of the configured database, and closes it whatever happens. */
export async function withStores<T>(config: StoresConfig, fn: (stores: Stores) => Promise<T>): Promise<T> {
  const db = await openCliDatabase(config);
  try {
    await prepareSchema(db, config.storage.kind);
    return await fn({ db, accounts: new AccountStore(db), clients: new ClientRegistry(db), consents: new ConsentStore(db) });
  } finally {
    await db.close();
  }
}

export interface EngineStores extends Stores {
  /** The engine's storage, Redis included when configured: what revoking tokens needs. */
  adapters: AdapterFactory;
  /** Present when the config has a Redis section (rate-limit counters live there). */
  redis?: Redis | Cluster;
}

/** Like withStores, with the engine's storage too, for the commands that revoke what was issued. */
export async function withEngineStores<T>(config: EngineStoresConfig, fn: (stores: EngineStores) => Promise<T>): Promise<T> {
  let storage: Storage | undefined;
  try {
    storage = await openStorage(config.storage);
    await storage.db.query('SELECT 1');
  } catch (cause) {
    await storage?.close().catch(() => {});
    throw cannotOpen(config, cause);
  }
  try {
    const { db } = storage;
    await prepareSchema(db, config.storage.kind);
    const { refreshTokenReuseGrace, refreshTokenAbsolute } = config.ttl;
    const adapters = storage.adapterFactory({ refreshTokenReuseGrace, refreshTokenAbsolute });
    return await fn({
      db,
      accounts: new AccountStore(db),
      clients: new ClientRegistry(db),
      consents: new ConsentStore(db),
      adapters,
      redis: storage.redis,
    });
  } finally {
    await storage.close();
  }
}

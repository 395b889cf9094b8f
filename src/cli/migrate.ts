// `signin migrate`: applies the pending migrations and says which.
import { knownMigrations } from '../../adapters/sql/migrate.ts';
import { COMMON_OPTIONS, expectPositionals, parseCommand } from './args.ts';
import { MIGRATE_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { applyPendingMigrations, loadStoresConfig, openCliDatabase } from './open-stores.ts';
import { printHelp, printLine } from './output.ts';

const HELP_COMMAND = 'signin migrate --help';

export async function runMigrate(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, COMMON_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, MIGRATE_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const config = loadStoresConfig(values.config, io);
  const db = await openCliDatabase(config);
  try {
    const applied = await applyPendingMigrations(db);
    const known = knownMigrations();
    if (applied.length === 0) {
      printLine(io, `schema up to date (version ${Math.max(0, ...known.map((m) => m.version))})`);
    } else {
      for (const version of applied) {
        const name = known.find((m) => m.version === version)?.name ?? '';
        printLine(io, `applied migration ${String(version).padStart(3, '0')} ${name}`.trimEnd());
      }
    }
  } finally {
    await db.close();
  }
  return 0;
}

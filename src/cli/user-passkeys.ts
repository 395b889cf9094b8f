// `signin user passkeys remove ACCOUNT PASSKEY_ID`: removes one of an account's passkeys (a lost phone,
// a passkey the owner cannot reach the account page to remove). `signin user show` lists them with their
// ids. The password, and every other passkey, stay.
import { PasskeyStore } from '../passkeys/store.ts';
import { cliEvent } from '../log/cli-events.ts';
import { COMMON_OPTIONS, expectPositionals, parseCommand } from './args.ts';
import { CommandError, UsageError } from './command-errors.ts';
import { USER_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { loadStoresConfig, withStores } from './open-stores.ts';
import { printHelp, printLine } from './output.ts';

const HELP_COMMAND = 'signin user --help';

export async function passkeysCommand(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === '--help' || action === '-h') return printHelp(io, USER_HELP);
  if (action !== 'remove')
    throw new UsageError(`unknown command: signin user passkeys ${action ?? ''}`.trim() + ' (expected remove)', HELP_COMMAND);
  const { values, positionals } = parseCommand(rest, COMMON_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  const [reference, passkeyId] = expectPositionals(positionals, ['ID|EMAIL', 'PASSKEY_ID'], HELP_COMMAND);
  const removed = await withStores(loadStoresConfig(values.config, io), async ({ db, accounts }) => {
    const account = await accounts.lookup(reference);
    if (!account) throw new CommandError(`no account with id, e-mail or username ${reference}`);
    const passkey = await new PasskeyStore(db).remove(account.id, passkeyId);
    if (!passkey) throw new CommandError(`account ${account.id} has no passkey ${passkeyId} (signin user show lists them)`);
    return passkey;
  });
  cliEvent(io, 'passkey.removed', { account_id: removed.accountId });
  printLine(io, `removed passkey ${removed.id} (${removed.name}) from account ${removed.accountId}`);
  return 0;
}

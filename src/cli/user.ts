// `signin user create`: an end-user account, for a first administrator or a test user.
import { DuplicateAccountError } from '../accounts/store.ts';
import { COMMON_OPTIONS, JSON_OPTION, expectPositionals, parseCommand, requireOption } from './args.ts';
import { CommandError, UsageError } from './errors.ts';
import { USER_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { loadCliConfig, withStores } from './open-stores.ts';
import { printHelp, printJson, printLine } from './output.ts';
import { readNewPassword } from './password.ts';

const HELP_COMMAND = 'signin user --help';
const ACTIONS = ['create'];

const CREATE_OPTIONS = {
  ...COMMON_OPTIONS,
  ...JSON_OPTION,
  email: { type: 'string' },
  username: { type: 'string' },
  'first-name': { type: 'string' },
  verified: { type: 'boolean' },
} as const;

// Deliberately loose: one @ with something on each side. The real check is the verification e-mail.
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function runUser(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError(`missing command: signin user ${ACTIONS.join('|')}`, HELP_COMMAND);
  if (action === '--help' || action === '-h') return printHelp(io, USER_HELP);
  if (action === 'create') return createUser(rest, io);
  throw new UsageError(`unknown command: signin user ${action}`, HELP_COMMAND);
}

async function createUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, CREATE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const email = requireOption(values.email, 'email', HELP_COMMAND).trim();
  const username = requireOption(values.username, 'username', HELP_COMMAND).trim();
  const firstName = requireOption(values['first-name'], 'first-name', HELP_COMMAND).trim();
  if (!EMAIL.test(email)) throw new CommandError(`--email: ${email} is not an e-mail address`);
  if (!username) throw new CommandError('--username: must not be empty');
  if (!firstName) throw new CommandError('--first-name: must not be empty');

  // The config is checked before the password is asked for, so that a typo does not cost a prompt.
  const config = loadCliConfig(values.config, io);
  const password = await readNewPassword(io);
  const account = await withStores(config, async ({ accounts }) => {
    try {
      return await accounts.create({ email, username, firstName, password, emailVerified: values.verified ?? false });
    } catch (error) {
      if (error instanceof DuplicateAccountError) {
        const option = error.field === 'email' ? `--email: an account with the e-mail ${email}` : `--username: an account with the username ${username}`;
        throw new CommandError(`${option} already exists`);
      }
      throw error;
    }
  });

  if (values.json) {
    const { id, emailVerified } = account;
    printJson(io, { id, email: account.email, username: account.username, firstName: account.firstName, emailVerified });
  } else {
    printLine(io, account.id);
  }
  return 0;
}

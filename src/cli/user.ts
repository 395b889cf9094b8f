// `signin user create`: an end-user account, for a first administrator or a test user; the other
// `signin user` commands administer existing accounts (user-admin.ts).
import { ruleMessage } from '../accounts/rule-messages.ts';
import { AccountRuleError, checkAccountDetails, checkNewPassword, type AccountField, type AccountRuleProblem } from '../accounts/rules.ts';
import { DuplicateAccountError } from '../accounts/store.ts';
import { t } from '../i18n/index.ts';
import { cliEvent } from '../log/cli-events.ts';
import { COMMON_OPTIONS, JSON_OPTION, expectPositionals, parseCommand, requireOption } from './args.ts';
import { CommandError, UsageError } from './command-errors.ts';
import { USER_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { loadStoresConfig, withStores } from './open-stores.ts';
import { printHelp, printJson, printLine } from './output.ts';
import { readNewPassword } from './password.ts';
import { USER_ADMIN_ACTIONS } from './user-admin.ts';
import { didYouMean } from '../config/did-you-mean.ts';

const ACTIONS: Record<string, (args: string[], io: CliIo) => Promise<number>> = { create: createUser, ...USER_ADMIN_ACTIONS };

const HELP_COMMAND = 'signin user --help';

const CREATE_OPTIONS = {
  ...COMMON_OPTIONS,
  ...JSON_OPTION,
  email: { type: 'string' },
  username: { type: 'string' },
  'first-name': { type: 'string' },
  verified: { type: 'boolean' },
} as const;

// Where each account field came from on the command line.
const SOURCE: Readonly<Record<AccountField, string>> = {
  email: '--email',
  username: '--username',
  firstName: '--first-name',
  password: 'password',
};

// The sentence the English pages show for the same refusal: the CLI speaks English throughout.
const describeProblems = (problems: readonly AccountRuleProblem[]): string =>
  problems.map((problem) => `${SOURCE[problem.field]}: ${t('en', ruleMessage(problem))}`).join('\n');

export async function runUser(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError(`missing command: signin user ${Object.keys(ACTIONS).join('|')}`, HELP_COMMAND);
  if (action === '--help' || action === '-h') return printHelp(io, USER_HELP);
  const handler = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!handler) throw new UsageError(`unknown command: signin user ${action}${didYouMean(action, Object.keys(ACTIONS))}`, HELP_COMMAND);
  return handler(rest, io);
}

async function createUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, CREATE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const email = requireOption(values.email, 'email', HELP_COMMAND).trim();
  const username = requireOption(values.username, 'username', HELP_COMMAND).trim();
  const firstName = requireOption(values['first-name'], 'first-name', HELP_COMMAND).trim();
  // The account store checks these too; checking them first spares a password prompt for a typo.
  const problems = checkAccountDetails({ email, username, firstName });
  if (problems.length) throw new CommandError(describeProblems(problems));

  // The config is checked before the password is asked for, so that a typo does not cost a prompt.
  const config = loadStoresConfig(values.config, io);
  const password = await readNewPassword(io);
  // Again the store's own rules, checked here too so that a refused password opens no database.
  const weak = checkNewPassword(password, { email, username, firstName });
  if (weak) throw new CommandError(describeProblems([weak]));
  const account = await withStores(config, async ({ accounts }) => {
    try {
      return await accounts.create({ email, username, firstName, password, emailVerified: values.verified ?? false });
    } catch (error) {
      if (error instanceof AccountRuleError) throw new CommandError(describeProblems(error.problems));
      if (error instanceof DuplicateAccountError) {
        if (error.reason === 'lookalike') throw new CommandError(`--username: ${username} looks too much like an existing username`);
        const option =
          error.field === 'email' ? `--email: an account with the e-mail ${email}` : `--username: an account with the username ${username}`;
        throw new CommandError(`${option} already exists`);
      }
      throw error;
    }
  });
  cliEvent(io, 'account.created', { account_id: account.id });

  if (values.json) {
    const { id, emailVerified } = account;
    printJson(io, { id, email: account.email, username: account.username, firstName: account.firstName, emailVerified });
  } else {
    printLine(io, account.id);
  }
  return 0;
}

// `signin user list|show|disable|enable|delete|export|verify-email`: user administration. An account is
// named by its id, its e-mail address or its username. Each action ends what it must (sessions,
// grants, tokens) through the same code as the pages (src/users/).
import type { AccountDetails } from '../accounts/store.ts';
import type { SignInConfig } from '../config/schema.ts';
import { isLocale } from '../i18n/index.ts';
import { deleteAccount, disableAccount, enableAccount, OwnsApplicationsError, type OwnedApplications } from '../users/account-admin.ts';
import { exportAccount } from '../users/account-export.ts';
import { cliEvent } from '../log/cli-events.ts';
import { resendVerification } from '../mail/verification-resend.ts';
import { COMMON_OPTIONS, JSON_OPTION, expectPositionals, parseCommand } from './args.ts';
import { CommandError, UsageError } from './command-errors.ts';
import { USER_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { withAdminStores, type AdminStores } from './open-admin.ts';
import { loadCliConfig, loadStoresConfig, withStores } from './open-stores.ts';
import { printHelp, printJson, printLine } from './output.ts';
import { accountTable, accountView } from './user-output.ts';
import { passkeysCommand } from './user-passkeys.ts';

const HELP_COMMAND = 'signin user --help';
const READ_OPTIONS = { ...COMMON_OPTIONS, ...JSON_OPTION } as const;
const LIST_OPTIONS = { ...READ_OPTIONS, search: { type: 'string' } } as const;
const DELETE_OPTIONS = { ...COMMON_OPTIONS, 'with-applications': { type: 'boolean' }, 'keep-applications': { type: 'boolean' } } as const;
const VERIFY_OPTIONS = { ...COMMON_OPTIONS, resend: { type: 'boolean' }, lang: { type: 'string' } } as const;

export const USER_ADMIN_ACTIONS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  list: listUsers,
  show: showUser,
  disable: disableUser,
  enable: enableUser,
  delete: deleteUser,
  export: exportUser,
  'verify-email': verifyEmail,
  passkeys: passkeysCommand,
};

const unknownAccount = (reference: string): CommandError => new CommandError(`no account with id, e-mail or username ${reference}`);

/** The account a reference names, found with the stores `fn` is then given. */
async function withAccount<T>(
  config: SignInConfig,
  reference: string,
  fn: (account: AccountDetails, stores: AdminStores) => Promise<T>,
): Promise<T> {
  return withAdminStores(config, async (stores) => {
    const account = await stores.accounts.lookup(reference);
    if (!account) throw unknownAccount(reference);
    return fn(account, stores);
  });
}

async function listUsers(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, LIST_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const accounts = await withStores(loadStoresConfig(values.config, io), ({ accounts }) => accounts.list({ search: values.search }));
  if (values.json) printJson(io, accounts.map(accountView));
  else printLine(io, accounts.length ? accountTable(accounts) : values.search ? `no account matches ${values.search}` : 'no accounts yet');
  return 0;
}

/** Everything held about the account named by id or e-mail (what `show` summarises and `export` prints). */
async function exportByReference(configPath: string | undefined, io: CliIo, reference: string) {
  const data = await withStores(loadStoresConfig(configPath, io), async (stores) => {
    const account = await stores.accounts.lookup(reference);
    return account && exportAccount(stores, account.id);
  });
  if (!data) throw unknownAccount(reference);
  return data;
}

async function showUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, READ_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  const [reference] = expectPositionals(positionals, ['ID|EMAIL'], HELP_COMMAND);
  const data = await exportByReference(values.config, io, reference);
  const { account, consents, sessions, applications, passkeys } = data;
  if (values.json) {
    // Without the public key: `export` prints it.
    const listed = passkeys.map(({ public_key: _key, transports: _transports, ...shown }) => shown);
    const counts = { active_sessions: sessions.active, consents: consents.length, applications: applications.length };
    printJson(io, { ...account, ...counts, passkeys: listed });
    return 0;
  }
  const rows: Array<[string, string]> = [
    ['id', account.id],
    ['email', `${account.email} (${account.email_verified ? 'verified' : 'not verified'})`],
    ['username', account.username],
    ['first name', account.first_name],
    ['status', account.disabled_at ? `disabled since ${account.disabled_at}` : 'active'],
    ['created', account.created_at],
    ['updated', account.updated_at],
    ['sessions', String(sessions.active)],
    ...consents.map((c): [string, string] => ['consent', `${c.application ?? `(deleted) ${c.client_id}`}: ${c.scopes.join(' ')}`]),
    ...applications.map((a): [string, string] => ['owns', `${a.client_id} ${a.name}`]),
    ...passkeys.map((p): [string, string] => ['passkey', `${p.id} ${p.name} (last used ${p.last_used_at ?? 'never'})`]),
  ];
  printLine(io, rows.map(([key, value]) => `${`${key}:`.padEnd(12)}${value}`).join('\n'));
  return 0;
}

async function disableUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, COMMON_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  const [reference] = expectPositionals(positionals, ['ID|EMAIL'], HELP_COMMAND);
  const { id, ended } = await withAccount(loadCliConfig(values.config, io), reference, async (account, stores) => ({
    id: account.id,
    ended: await disableAccount(stores, account.id),
  }));
  if (!ended) throw unknownAccount(reference);
  cliEvent(io, 'account.disabled', { account_id: id });
  printLine(io, `disabled account ${id}: ${ended.sessions} session(s) ended, ${ended.grants} application grant(s) revoked`);
  return 0;
}

async function enableUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, COMMON_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  const [reference] = expectPositionals(positionals, ['ID|EMAIL'], HELP_COMMAND);
  const id = await withStores(loadStoresConfig(values.config, io), async ({ accounts }) => {
    const account = await accounts.lookup(reference);
    if (!account || !(await enableAccount({ accounts }, account.id))) throw unknownAccount(reference);
    return account.id;
  });
  cliEvent(io, 'account.enabled', { account_id: id });
  printLine(io, `enabled account ${id}: it can sign in again`);
  return 0;
}

async function deleteUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, DELETE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  const [reference] = expectPositionals(positionals, ['ID|EMAIL'], HELP_COMMAND);
  if (values['with-applications'] && values['keep-applications']) {
    throw new UsageError('give --with-applications or --keep-applications, not both', HELP_COMMAND);
  }
  const owned: OwnedApplications = values['with-applications'] ? 'delete' : values['keep-applications'] ? 'keep' : 'refuse';
  const { id, deleted } = await withAccount(loadCliConfig(values.config, io), reference, async (account, stores) => {
    try {
      return { id: account.id, deleted: await deleteAccount(stores, account.id, owned) };
    } catch (error) {
      if (!(error instanceof OwnsApplicationsError)) throw error;
      const names = error.applications.map((a) => `${a.clientId} (${a.name})`).join(', ');
      throw new CommandError(
        `account ${account.id} owns applications used by others: ${names}\n` +
          'add --with-applications to delete them too (their users lose access), or --keep-applications to keep them without an owner',
      );
    }
  });
  if (!deleted) throw unknownAccount(reference);
  cliEvent(io, 'account.deleted', { account_id: id });
  for (const clientId of deleted.applications) cliEvent(io, 'application.deleted', { client_id: clientId });
  const apps = deleted.applications.length ? `, application(s) deleted: ${deleted.applications.join(' ')}` : '';
  printLine(io, `deleted account ${id}: ${deleted.sessions} session(s) ended, ${deleted.grants} application grant(s) revoked${apps}`);
  return 0;
}

async function exportUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, COMMON_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  const [reference] = expectPositionals(positionals, ['ID|EMAIL'], HELP_COMMAND);
  const data = await exportByReference(values.config, io, reference);
  cliEvent(io, 'account.exported', { account_id: data.account.id });
  printJson(io, data);
  return 0;
}

async function verifyEmail(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, VERIFY_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, USER_HELP);
  const [reference] = expectPositionals(positionals, ['ID|EMAIL'], HELP_COMMAND);
  if (values.lang !== undefined && (!values.resend || !isLocale(values.lang))) {
    throw new UsageError(
      values.resend ? `option --lang must be fr or en, not ${values.lang}` : 'option --lang goes with --resend',
      HELP_COMMAND,
    );
  }
  const config = loadCliConfig(values.config, io);
  const message = await withAccount(config, reference, async (account, { accounts, mail, limits }) => {
    if (account.emailVerified) return `the e-mail address of account ${account.id} is already verified`;
    if (values.resend) {
      // Within the per-address limit of every other e-mail (src/mail/verification-resend.ts).
      const locale = isLocale(values.lang) ? values.lang : config.languages.default;
      const log = (name: Parameters<typeof cliEvent>[1], fields: Parameters<typeof cliEvent>[2]) => cliEvent(io, name, fields);
      const { outcome, send } = await resendVerification({ limits, mail }, account, { locale, source: 'cli', log });
      if (outcome === 'throttled')
        throw new CommandError(`too many e-mails were sent to ${account.email} lately (rateLimit.mailPerAddress): try again later`);
      await send;
      return `sent a new verification link to ${account.email}`;
    }
    await accounts.markEmailVerified(account.id);
    cliEvent(io, 'email.verified', { account_id: account.id });
    return `marked the e-mail address of account ${account.id} as verified`;
  });
  printLine(io, message);
  return 0;
}

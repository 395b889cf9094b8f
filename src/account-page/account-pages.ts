// Renders the account page (signed in) or its sign-in form (signed out), with the notices that the
// actions leave in the query string after their redirect (post/redirect/get). Signed in, the page is an
// overview: one entry per task (profile, address, password, devices, applications, data, deletion), each
// a disclosure that opens in place, at most one open at a time; a form answered with an error, or a
// notice about a task, opens its entry.
import type Koa from 'koa';
import type { Account } from '../accounts/store.ts';
import { translator, type Locale, type MessageKey, type MessageVars } from '../i18n/index.ts';
import { csrfToken } from '../pages/anti-forgery.ts';
import { cookieJar } from '../pages/cookies.ts';
import { renderPage } from '../pages/render.ts';
import { PASSKEY_PAGE_POLICY } from '../pages/security-headers.ts';
import { currentSession } from '../provider/engine-session.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { sharedApplications } from './applications.ts';
import { passkeysView } from './passkey-list.ts';
import { signedInDevices } from './signed-in-devices.ts';

const NOTICES: Readonly<Record<string, MessageKey>> = {
  password: 'account.password.changed',
  'signed-out': 'account.sessions.ended',
  'signed-out-here': 'account.sessions.signedOut',
  'device-ended': 'account.sessions.endedOne',
  revoked: 'account.apps.revoked',
  'verification-sent': 'account.verify.sent',
  'verification-throttled': 'account.verify.throttled',
  profile: 'account.profile.changed',
  'email-sent': 'account.email.sent',
  'email-throttled': 'account.verify.throttled',
  'email-changed': 'account.email.changed',
  'email-taken': 'account.email.taken',
  'passkey-added': 'account.passkeys.added',
  'passkey-renamed': 'account.passkeys.renamed',
  'passkey-removed': 'account.passkeys.removed',
};

/** The forms of the page that can be answered with an error of their own. */
export type AccountForm = 'login' | 'password' | 'email' | 'profile' | 'delete' | 'passkeys';

/** The tasks of the overview, in the order it shows them. */
const TASKS = ['profile', 'email', 'password', 'passkeys', 'sessions', 'apps', 'export', 'delete'] as const;
export type AccountTask = (typeof TASKS)[number];

/** The entry a notice is about, opened so that its outcome shows where it happened. */
const NOTICE_TASKS: Readonly<Record<string, AccountTask>> = {
  revoked: 'apps',
  'device-ended': 'sessions',
  'passkey-added': 'passkeys',
  'passkey-renamed': 'passkeys',
  'passkey-removed': 'passkeys',
};

export interface PageState {
  locale: Locale;
  status?: number;
  /** A message about a form of the page, shown at that form. */
  error?: { form: AccountForm; message: MessageKey; vars?: MessageVars };
  /** What the user typed in the form that was refused, shown again (never a password). */
  typed?: { newEmail?: string; username?: string; firstName?: string };
  /** The deletion was refused for the applications the account owns: the error links to the portal. */
  linkPortal?: boolean;
  /** Over the sign-in limits: the message links to password reset, which lifts the account's limit. */
  offerReset?: boolean;
  email?: string;
  /** "Rester connecté" as it was ticked, when the sign-in form is shown again. */
  remember?: boolean;
}

type PageDeps = Pick<AccountPageDeps, 'config' | 'clients' | 'consents'>;
type AccountViewDeps = PageDeps & Pick<AccountPageDeps, 'provider' | 'sessions' | 'passkeys'>;

/** The entry to open: the form answered with an error, else the task the notice or the link is about. */
function openTask(ctx: Koa.Context, state: PageState): AccountTask | null {
  const form = state.error?.form;
  if (form && form !== 'login') return form;
  const notice = typeof ctx.query.notice === 'string' ? NOTICE_TASKS[ctx.query.notice] : undefined;
  if (notice) return notice;
  const task = ctx.query.task;
  return typeof task === 'string' && (TASKS as readonly string[]).includes(task) ? (task as AccountTask) : null;
}

/** The error of `form`, translated, when the page answers that form. */
function formError(state: PageState, form: AccountForm): string | null {
  return state.error?.form === form ? translator(state.locale)(state.error.message, state.error.vars) : null;
}

// Which application was just revoked travels in a short-lived signed cookie, bound to the account that
// revoked it, rather than in the query: a link such as /account?notice=revoked&client=<any id> must not
// make the page name an application the signed-in user never dealt with.
const REVOKED_COOKIE = 'account_revoked';
const REVOKED_SECONDS = 60;

interface Revoked {
  accountId?: unknown;
  clientId?: unknown;
}

/** Remembers, for the page after the redirect, that `accountId` has just revoked `clientId`. */
export function rememberRevoked(ctx: Koa.Context, deps: Pick<AccountPageDeps, 'config'>, accountId: string, clientId: string): void {
  cookieJar({ issuer: deps.config.issuer }).write(ctx, REVOKED_COOKIE, { accountId, clientId }, REVOKED_SECONDS);
}

/** The application the signed-in account has just revoked, read once. */
function takeRevoked(ctx: Koa.Context, deps: PageDeps, accountId: string | undefined): string | undefined {
  const jar = cookieJar({ issuer: deps.config.issuer });
  if (ctx.cookies.get(REVOKED_COOKIE, { signed: true }) === undefined) return undefined;
  const flash = jar.read<Revoked>(ctx, REVOKED_COOKIE);
  jar.clear(ctx, REVOKED_COOKIE);
  return accountId && flash?.accountId === accountId && typeof flash.clientId === 'string' ? flash.clientId : undefined;
}

async function notice(ctx: Koa.Context, deps: PageDeps, locale: Locale, accountId?: string): Promise<string | null> {
  const key = typeof ctx.query.notice === 'string' ? NOTICES[ctx.query.notice] : undefined;
  if (!key) return null;
  const t = translator(locale);
  if (key !== 'account.apps.revoked') return t(key);
  const clientId = takeRevoked(ctx, deps, accountId);
  const client = clientId ? await deps.clients.get(clientId) : undefined;
  return client ? t(key, { client: client.name }) : t('account.apps.revokedGeneric');
}

export async function renderAccountLogin(ctx: Koa.Context, deps: PageDeps, state: PageState): Promise<void> {
  const t = translator(state.locale);
  await renderPage(
    ctx,
    'account-login',
    {
      csrf: csrfToken(ctx, deps.config.issuer),
      email: state.email ?? '',
      notice: await notice(ctx, deps, state.locale),
      error: state.error ? t(state.error.message, state.error.vars) : null,
      offerReset: state.offerReset === true,
      remember: state.remember === true,
    },
    { locale: state.locale, status: state.status, returnTo: '/account', scripts: ['show-password.js'] },
  );
}

export async function renderAccount(ctx: Koa.Context, deps: AccountViewDeps, account: Account, state: PageState): Promise<void> {
  const t = translator(state.locale);
  const session = await currentSession(ctx, deps.provider);
  await renderPage(
    ctx,
    'account',
    {
      csrf: csrfToken(ctx, deps.config.issuer),
      account: { email: account.email, username: account.username, firstName: account.firstName, emailVerified: account.emailVerified },
      apps: await sharedApplications(account.id, deps, state.locale, t),
      devices: await signedInDevices(deps.sessions, account.id, session?.uid, state.locale, t),
      open: openTask(ctx, state),
      notice: await notice(ctx, deps, state.locale, account.id),
      passwordError: formError(state, 'password'),
      emailError: formError(state, 'email'),
      profileError: formError(state, 'profile'),
      deleteError: formError(state, 'delete'),
      passkeys: await passkeysView(ctx, deps, account.id, state.locale, t),
      passkeysError: formError(state, 'passkeys'),
      portalHref: state.linkPortal ? `${deps.config.portal.path}/` : null,
      // The phone number has a page of its own (phone-number.ts), when the deployment offers phone sign-in.
      phoneHref: deps.config.phone.enabled ? '/account/phone' : null,
      typed: {
        newEmail: state.typed?.newEmail ?? '',
        username: state.typed?.username ?? account.username,
        firstName: state.typed?.firstName ?? account.firstName,
      },
    },
    {
      locale: state.locale,
      status: state.status,
      returnTo: '/account',
      scripts: deps.passkeys.enabled ? ['show-password.js', 'passkeys.js'] : ['show-password.js'],
      contentSecurityPolicy: deps.passkeys.enabled ? PASSKEY_PAGE_POLICY : undefined,
    },
  );
}

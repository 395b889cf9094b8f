// Renders the account page (signed in) or its sign-in form (signed out), with the notices that the
// actions leave in the query string after their redirect (post/redirect/get).
import type Koa from 'koa';
import type { Account } from '../accounts/store.ts';
import { translator, type Locale, type MessageKey } from '../i18n/index.ts';
import { setPageCookie } from '../pages/cookies.ts';
import { csrfToken } from '../pages/csrf.ts';
import { renderPage } from '../pages/render.ts';
import type { ServiceContext } from '../service-context.ts';
import { sharedApplications } from './applications.ts';

const NOTICES: Readonly<Record<string, MessageKey>> = {
  password: 'account.password.changed',
  'signed-out': 'account.sessions.ended',
  revoked: 'account.apps.revoked',
};

export interface PageState {
  locale: Locale;
  status?: number;
  /** A message about a form of the page, shown at that form. */
  error?: { form: 'login' | 'password'; message: MessageKey; vars?: Record<string, string | number> };
  email?: string;
}

// Which application was just revoked travels in a short-lived signed cookie, bound to the account that
// revoked it, rather than in the query: a link such as /account?notice=revoked&client=<any id> must not
// make the page name an application the signed-in user never dealt with.
const REVOKED_COOKIE = 'account_revoked';
const REVOKED_SECONDS = 60;

/** Remembers, for the page after the redirect, that `accountId` has just revoked `clientId`. */
export function rememberRevoked(ctx: Koa.Context, context: ServiceContext, accountId: string, clientId: string): void {
  const value = Buffer.from(JSON.stringify({ accountId, clientId })).toString('base64url');
  setPageCookie(ctx, REVOKED_COOKIE, value, { issuer: context.config.issuer, signed: true, maxAgeSeconds: REVOKED_SECONDS });
}

/** The application the signed-in account has just revoked, read once. */
function takeRevoked(ctx: Koa.Context, context: ServiceContext, accountId: string | undefined): string | undefined {
  const value = ctx.cookies.get(REVOKED_COOKIE, { signed: true });
  if (value === undefined) return undefined;
  setPageCookie(ctx, REVOKED_COOKIE, null, { issuer: context.config.issuer, signed: true });
  try {
    const flash = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { accountId?: unknown; clientId?: unknown };
    return accountId && flash.accountId === accountId && typeof flash.clientId === 'string' ? flash.clientId : undefined;
  } catch {
    return undefined;
  }
}

async function notice(ctx: Koa.Context, context: ServiceContext, locale: Locale, accountId?: string): Promise<string | null> {
  const key = typeof ctx.query.notice === 'string' ? NOTICES[ctx.query.notice] : undefined;
  if (!key) return null;
  const t = translator(locale);
  if (key !== 'account.apps.revoked') return t(key);
  const clientId = takeRevoked(ctx, context, accountId);
  const client = clientId ? await context.clients.get(clientId) : undefined;
  return client ? t(key, { client: client.name }) : t('account.apps.revokedGeneric');
}

export async function renderAccountLogin(ctx: Koa.Context, context: ServiceContext, state: PageState): Promise<void> {
  const t = translator(state.locale);
  await renderPage(
    ctx,
    'account-login',
    {
      csrf: csrfToken(ctx, context.config.issuer),
      email: state.email ?? '',
      notice: await notice(ctx, context, state.locale),
      error: state.error ? t(state.error.message, state.error.vars) : null,
    },
    { locale: state.locale, status: state.status, returnTo: '/account' },
  );
}

export async function renderAccount(ctx: Koa.Context, context: ServiceContext, account: Account, state: PageState): Promise<void> {
  const t = translator(state.locale);
  await renderPage(
    ctx,
    'account',
    {
      csrf: csrfToken(ctx, context.config.issuer),
      account: { email: account.email, username: account.username, firstName: account.firstName, emailVerified: account.emailVerified },
      apps: await sharedApplications(account.id, context, state.locale, t),
      notice: await notice(ctx, context, state.locale, account.id),
      passwordError: state.error?.form === 'password' ? t(state.error.message, state.error.vars) : null,
    },
    { locale: state.locale, status: state.status, returnTo: '/account' },
  );
}

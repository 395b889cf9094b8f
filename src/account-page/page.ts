// Renders the account page (signed in) or its sign-in form (signed out), with the notices that the
// actions leave in the query string after their redirect (post/redirect/get).
import type Koa from 'koa';
import type { Account } from '../accounts/store.ts';
import { translator, type Locale, type MessageKey } from '../i18n/index.ts';
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

async function notice(ctx: Koa.Context, context: ServiceContext, locale: Locale): Promise<string | null> {
  const key = typeof ctx.query.notice === 'string' ? NOTICES[ctx.query.notice] : undefined;
  if (!key) return null;
  const clientId = typeof ctx.query.client === 'string' ? ctx.query.client : '';
  const client = clientId ? await context.clients.get(clientId) : undefined;
  return translator(locale)(key, { client: client?.name ?? translator(locale)('account.apps.unknown') });
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
      notice: await notice(ctx, context, state.locale),
      passwordError: state.error?.form === 'password' ? t(state.error.message, state.error.vars) : null,
    },
    { locale: state.locale, status: state.status, returnTo: '/account' },
  );
}

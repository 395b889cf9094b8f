// /password/reset?token=...: the link of the reset e-mail. The form is shown while the token is valid;
// submitting it uses the token, sets the new password, ends every other reset link, every session and
// every application's grant.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { checkPassword } from '../../src/accounts/password-policy.ts';
import { accountLimitKey } from '../../src/accounts/rate-limits.ts';
import { revokeAccountGrants } from '../../src/grants/revoke.ts';
import { translator } from '../../src/i18n/index.ts';
import { csrfToken } from '../../src/pages/csrf.ts';
import { renderErrorPage } from '../../src/pages/error-page.ts';
import { localeFor, renderPage } from '../../src/pages/render.ts';
import type { ServiceContext } from '../../src/service-context.ts';
import { readCheckedForm } from '../body.ts';
import { endUserServices } from '../end-user.ts';
import { PASSWORD_MESSAGES } from '../signup-form.ts';

function showReset(ctx: Koa.Context, context: ServiceContext, token: string, error: string | null = null, status = 200) {
  return renderPage(
    ctx,
    'reset',
    { csrf: csrfToken(ctx, context.config.issuer), token, error },
    { locale: localeFor(ctx, context.config), status, returnTo: `/password/reset?token=${encodeURIComponent(token)}` },
  );
}

export function showResetRoute(context: ServiceContext): RouterMiddleware {
  const { tokens } = endUserServices(context);
  return async function showResetPage(ctx) {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    if (!token || !(await tokens.peek(token, 'reset-password'))) {
      return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale: localeFor(ctx, context.config) });
    }
    await showReset(ctx, context, token);
  };
}

export function submitReset(context: ServiceContext): RouterMiddleware {
  const { tokens, sessions, limits } = endUserServices(context);
  return async function submitResetRoute(ctx) {
    const locale = localeFor(ctx, context.config);
    ctx.state.locale = locale;
    const body = await readCheckedForm(ctx);
    const token = body.get('token') ?? '';
    const password = body.get('password') ?? '';
    const holder = token ? await tokens.peek(token, 'reset-password') : undefined;
    const account = holder ? await context.accounts.findById(holder) : undefined;
    if (!account) return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale, returnTo: '/account' });
    const problem = checkPassword(password, account);
    if (problem) return showReset(ctx, context, token, translator(locale)(PASSWORD_MESSAGES[problem]), 400);
    // Used only now, atomically: of two submissions of the same link, one wins.
    if ((await tokens.consume(token, 'reset-password')) !== account.id) {
      return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale, returnTo: '/account' });
    }
    await context.accounts.setPassword(account.id, password);
    await tokens.revokeAll(account.id, 'reset-password');
    // Whoever knew the old password is signed out; reading the mailbox proved who the owner is.
    await sessions.endAll(account.id);
    // And loses the applications' access too: a refresh token outlives the session it came from.
    await revokeAccountGrants(context.adapters, context.consents, account.id);
    // The owner may sign in at once, even if someone had run the account's sign-in limit out.
    await limits.loginPerAccount.reset(accountLimitKey(account.id));
    // Reaching the mailbox also proves the address.
    if (!account.emailVerified) await context.accounts.markEmailVerified(account.id);
    await renderPage(ctx, 'reset-done', {}, { locale, returnTo: '/account' });
  };
}

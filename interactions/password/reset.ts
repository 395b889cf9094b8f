// /password/reset?token=...: the link of the reset e-mail. The form is shown while the token is valid;
// submitting it uses the token, sets the new password, ends every other reset link, every session and
// every application's grant. A link that no longer works (used, expired, cut by a mail client) leads
// to the form that sends a new one.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { checkPassword } from '../../src/accounts/password-policy.ts';
import { accountLimitKey } from '../../src/accounts/rate-limits.ts';
import { translator } from '../../src/i18n/index.ts';
import { securityEvent } from '../../src/log/security-log.ts';
import { csrfToken, readCheckedForm } from '../../src/pages/anti-forgery.ts';
import { renderErrorPage } from '../../src/pages/error-page.ts';
import { localeFor } from '../../src/pages/language.ts';
import { renderPage } from '../../src/pages/render.ts';
import { passwordError } from '../field-errors.ts';
import type { InteractionDeps } from '../interaction-deps.ts';

type Config = InteractionDeps['config'];

function showReset(ctx: Koa.Context, config: Config, token: string, error: string | null = null, status = 200) {
  return renderPage(
    ctx,
    'reset',
    { csrf: csrfToken(ctx, config.issuer), token, error },
    {
      locale: localeFor(ctx, config),
      status,
      returnTo: `/password/reset?token=${encodeURIComponent(token)}`,
      scripts: ['show-password.js'],
    },
  );
}

export function showResetRoute(deps: InteractionDeps): RouterMiddleware {
  const { tokens, config } = deps;
  return async function showResetPage(ctx) {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    if (!token || !(await tokens.peek(token, 'reset-password'))) {
      return renderErrorPage(ctx, { reason: 'resetLinkInvalid', status: 400, locale: localeFor(ctx, config) });
    }
    await showReset(ctx, config, token);
  };
}

export function submitReset(deps: InteractionDeps): RouterMiddleware {
  const { tokens, sessions, limits, accounts, config } = deps;
  return async function submitResetRoute(ctx) {
    const locale = localeFor(ctx, config);
    ctx.state.locale = locale;
    const body = await readCheckedForm(ctx);
    const token = body.get('token') ?? '';
    const password = body.get('password') ?? '';
    const holder = token ? await tokens.peek(token, 'reset-password') : undefined;
    const account = holder ? await accounts.findById(holder) : undefined;
    if (!account) return renderErrorPage(ctx, { reason: 'resetLinkInvalid', status: 400, locale, returnTo: '/account' });
    const problem = checkPassword(password, account);
    if (problem) return showReset(ctx, config, token, translator(locale)(passwordError(problem, password)), 400);
    // Used only now, atomically: of two submissions of the same link, one wins.
    if ((await tokens.consume(token, 'reset-password')) !== account.id) {
      return renderErrorPage(ctx, { reason: 'resetLinkInvalid', status: 400, locale, returnTo: '/account' });
    }
    await accounts.setPassword(account.id, password);
    securityEvent('password.reset', { account_id: account.id, source: 'interaction' });
    await tokens.revokeAll(account.id, 'reset-password');
    // Whoever knew the old password is signed out; reading the mailbox proved who the owner is.
    await sessions.endAll(account.id);
    // And loses the applications' access too: a refresh token outlives the session it came from.
    await deps.grants.revokeAccountGrants(account.id);
    // The owner may sign in at once, even if someone had run the account's sign-in limit out.
    await limits.loginPerAccount.reset(accountLimitKey(account.id));
    // Reaching the mailbox also proves the address.
    if (!account.emailVerified) await accounts.markEmailVerified(account.id);
    if (!account.emailVerified)
      securityEvent('email.verified', { account_id: account.id, reason: 'password_reset', source: 'interaction' });
    await renderPage(ctx, 'reset-done', {}, { locale, returnTo: '/account' });
  };
}

// /email/verify?token=...: the link of the verification e-mail. Opening it (GET) only shows a confirm
// button, with the address it confirms: mail scanners and link previews open links by themselves, and a
// GET that verified would let them confirm someone's pre-registration of an address they do not own.
// Pressing the button (POST, with the anti-forgery token) uses the token and marks the address verified
// (userinfo then says email_verified: true); the token is single-use and expires, and a change of address
// ends it (src/account-page/email-change.ts). A link that no longer works offers to send a new one
// (verify-resend.ts).
import type { RouterMiddleware } from '@koa/router';
import { securityEvent } from '../src/log/security-log.ts';
import { csrfToken, readCheckedForm } from '../src/pages/anti-forgery.ts';
import { localeFor } from '../src/pages/language.ts';
import { renderPage } from '../src/pages/render.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { showExpiredLink } from './verify-resend.ts';

export function showVerifyEmail(deps: InteractionDeps): RouterMiddleware {
  const { tokens, config } = deps;
  return async function showVerifyEmailRoute(ctx) {
    const locale = localeFor(ctx, config);
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    // Only looked at: the link keeps working until the button is pressed.
    const accountId = token ? await tokens.peek(token, 'verify-email') : undefined;
    const account = accountId ? await deps.accounts.findById(accountId) : undefined;
    if (!account) return showExpiredLink(ctx, deps, locale);
    // The address the button confirms, so that the reader knows which of their addresses this link is for.
    await renderPage(
      ctx,
      'verify-confirm',
      { csrf: csrfToken(ctx, config.issuer), token, email: account.email },
      { locale, returnTo: `/email/verify?token=${encodeURIComponent(token)}` },
    );
  };
}

export function verifyEmail(deps: InteractionDeps): RouterMiddleware {
  const { tokens, config } = deps;
  return async function verifyEmailRoute(ctx) {
    const locale = localeFor(ctx, config);
    ctx.state.locale = locale;
    const body = await readCheckedForm(ctx);
    const token = body.get('token') ?? '';
    const accountId = token ? await tokens.consume(token, 'verify-email') : undefined;
    if (!accountId) return showExpiredLink(ctx, deps, locale);
    await deps.accounts.markEmailVerified(accountId);
    securityEvent('email.verified', { account_id: accountId, reason: 'verification_link', source: 'interaction' });
    await renderPage(ctx, 'verified', {}, { locale, returnTo: '/account' });
  };
}

// /email/verify?token=...: the link of the verification e-mail. Opening it (GET) only shows a confirm
// button: mail scanners and link previews open links by themselves, and a GET that verified would let
// them confirm someone's pre-registration of an address they do not own. Pressing the button (POST,
// with the anti-forgery token) uses the token and marks the address verified (userinfo then says
// email_verified: true); the token is single-use and expires.
import type { RouterMiddleware } from '@koa/router';
import { csrfToken } from '../src/pages/csrf.ts';
import { renderErrorPage } from '../src/pages/error-page.ts';
import { localeFor, renderPage } from '../src/pages/render.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { readCheckedForm } from './body.ts';
import { endUserServices } from './end-user.ts';

export function showVerifyEmail(context: ServiceContext): RouterMiddleware {
  const { tokens } = endUserServices(context);
  return async function showVerifyEmailRoute(ctx) {
    const locale = localeFor(ctx, context.config);
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    // Only looked at: the link keeps working until the button is pressed.
    if (!token || !(await tokens.peek(token, 'verify-email'))) {
      return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale, returnTo: '/account' });
    }
    await renderPage(
      ctx,
      'verify-confirm',
      { csrf: csrfToken(ctx, context.config.issuer), token },
      { locale, returnTo: `/email/verify?token=${encodeURIComponent(token)}` },
    );
  };
}

export function verifyEmail(context: ServiceContext): RouterMiddleware {
  const { tokens } = endUserServices(context);
  return async function verifyEmailRoute(ctx) {
    const locale = localeFor(ctx, context.config);
    ctx.state.locale = locale;
    const body = await readCheckedForm(ctx);
    const token = body.get('token') ?? '';
    const accountId = token ? await tokens.consume(token, 'verify-email') : undefined;
    if (!accountId) return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale, returnTo: '/account' });
    await context.accounts.markEmailVerified(accountId);
    await renderPage(ctx, 'verified', {}, { locale, returnTo: '/account' });
  };
}

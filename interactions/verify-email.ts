// GET /email/verify?token=...: the link of the verification e-mail. Following it marks the address
// verified (userinfo then says email_verified: true); the token is single-use and expires.
import type { RouterMiddleware } from '@koa/router';
import { renderErrorPage } from '../src/pages/error-page.ts';
import { localeFor, renderPage } from '../src/pages/render.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { endUserServices } from './end-user.ts';

export function verifyEmail(context: ServiceContext): RouterMiddleware {
  const { tokens } = endUserServices(context);
  return async function verifyEmailRoute(ctx) {
    const locale = localeFor(ctx, context.config);
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const accountId = token ? await tokens.consume(token, 'verify-email') : undefined;
    // The language switch must not replay a used link: it returns to the account page instead.
    if (!accountId) return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale, returnTo: '/account' });
    await context.accounts.markEmailVerified(accountId);
    await renderPage(ctx, 'verified', {}, { locale, returnTo: '/account' });
  };
}

// /password/forgot: asks for an address and sends a reset link. The answer is the same page whether
// or not the address is registered, and it takes the same path through the limits either way.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { limitKeyFor } from '../../src/accounts/rate-limits.ts';
import { translator } from '../../src/i18n/index.ts';
import { csrfToken } from '../../src/pages/csrf.ts';
import { localeFor, renderPage } from '../../src/pages/render.ts';
import type { ServiceContext } from '../../src/service-context.ts';
import { readCheckedForm } from '../body.ts';
import { endUserServices } from '../end-user.ts';
import { logMailFailure } from '../mail-failure.ts';
import { safeReturnPath } from '../safe-return.ts';

function showForgot(ctx: Koa.Context, context: ServiceContext, back: string, email = '', error: string | null = null, status = 200) {
  const locale = localeFor(ctx, context.config);
  return renderPage(
    ctx,
    'forgot',
    { csrf: csrfToken(ctx, context.config.issuer), email, back, error },
    { locale, status, returnTo: `/password/forgot?return=${encodeURIComponent(back)}` },
  );
}

export function showForgotRoute(context: ServiceContext): RouterMiddleware {
  return async (ctx) => showForgot(ctx, context, safeReturnPath(ctx.query.return));
}

export function submitForgot(context: ServiceContext): RouterMiddleware {
  const services = endUserServices(context);
  return async function submitForgotRoute(ctx) {
    const locale = localeFor(ctx, context.config);
    ctx.state.locale = locale;
    const body = await readCheckedForm(ctx);
    const back = safeReturnPath(body.get('return'));
    const email = (body.get('email') ?? '').trim();
    if (!email || email.length > 254) {
      return showForgot(ctx, context, back, email, translator(locale)('signup.error.email'), 400);
    }
    // The address is looked up whether or not it is registered, and both limits are consumed either
    // way, so a limited request looks the same too. The per-address limit is keyed on the account when
    // there is one: every spelling SQL matches to it shares one counter (see addressLimitKey).
    const account = await context.accounts.findByEmail(email);
    const allowed = (await services.limits.mailPerIp.take(ctx.ip)) && (await services.limits.mailPerAddress.take(limitKeyFor(account, email)));
    // Not awaited: waiting for the mail server only for registered addresses would tell them apart by
    // the answer's time. A failure is still logged.
    if (allowed && account) void services.sendReset(account, locale).catch(logMailFailure);
    await renderPage(ctx, 'forgot-sent', { email, back }, { locale, returnTo: back });
  };
}

// /password/forgot: asks for an address and sends a reset link. The answer is the same page whether
// or not the address is registered, and it takes the same path through the limits either way.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { limitKeyFor } from '../../src/accounts/rate-limits.ts';
import { translator } from '../../src/i18n/index.ts';
import { emailDomain, securityEvent } from '../../src/log/security-log.ts';
import { mailAfterAnswer } from '../../src/mail/after-answer.ts';
import { csrfToken, readCheckedForm } from '../../src/pages/anti-forgery.ts';
import { localeFor } from '../../src/pages/language.ts';
import { renderPage } from '../../src/pages/render.ts';
import { safeReturnPath } from '../../src/pages/return-path.ts';
import type { InteractionDeps } from '../interaction-deps.ts';

type Config = InteractionDeps['config'];

function showForgot(ctx: Koa.Context, config: Config, back: string, email = '', error: string | null = null, status = 200) {
  const locale = localeFor(ctx, config);
  return renderPage(
    ctx,
    'forgot',
    { csrf: csrfToken(ctx, config.issuer), email, back, error },
    { locale, status, returnTo: `/password/forgot?return=${encodeURIComponent(back)}` },
  );
}

export function showForgotRoute(deps: InteractionDeps): RouterMiddleware {
  return async (ctx) => showForgot(ctx, deps.config, safeReturnPath(ctx.query.return));
}

export function submitForgot(deps: InteractionDeps): RouterMiddleware {
  const { config, limits } = deps;
  return async function submitForgotRoute(ctx) {
    const locale = localeFor(ctx, config);
    ctx.state.locale = locale;
    const body = await readCheckedForm(ctx);
    const back = safeReturnPath(body.get('return'));
    const email = (body.get('email') ?? '').trim();
    if (!email || email.length > 254) {
      return showForgot(ctx, config, back, email, translator(locale)('signup.error.email'), 400);
    }
    // The address is looked up whether or not it is registered, and both limits are consumed either
    // way, so a limited request looks the same too. The per-address limit is keyed on the account when
    // there is one: every spelling SQL matches to it shares one counter (see limitKeyFor).
    const account = await deps.accounts.findByEmail(email);
    const allowed = (await limits.mailPerIp.take(ctx.ip)) && (await limits.mailPerAddress.take(limitKeyFor(account, email)));
    // After the answer: issuing the link and sending it, for registered addresses only, would tell them
    // apart by the answer's time, even unawaited (test/timing). A failure is still logged.
    if (allowed && account) mailAfterAnswer(ctx, () => deps.mail.sendReset(account, locale));
    if (!allowed)
      securityEvent('mail.throttled', { limit: 'mail', account_id: account?.id, email_domain: emailDomain(email), source: 'interaction' });
    await renderPage(ctx, 'forgot-sent', { email, back }, { locale, returnTo: back });
  };
}

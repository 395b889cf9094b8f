// A verification link that no longer works (used, expired, or mangled by a mail client) is not a dead
// end: its page offers to send a new one to the address typed. Like "mot de passe oublié", the answer is
// the same page whether or not the address is registered or already verified, the limits are counted
// either way, and the link is issued and sent after the answer: nothing tells registered addresses apart.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { limitKeyFor } from '../src/accounts/rate-limits.ts';
import type { Locale } from '../src/i18n/index.ts';
import { emailDomain, securityEvent } from '../src/log/security-log.ts';
import { mailAfterAnswer } from '../src/mail/after-answer.ts';
import { csrfToken, readCheckedForm } from '../src/pages/anti-forgery.ts';
import { localeFor } from '../src/pages/language.ts';
import { renderPage } from '../src/pages/render.ts';
import type { InteractionDeps } from './interaction-deps.ts';

export const RESEND_PATH = '/email/verify/resend';

/** The page of a link that does not work: what happened, and the form that sends a new link. */
export function showExpiredLink(
  ctx: Koa.Context,
  deps: Pick<InteractionDeps, 'config'>,
  locale: Locale,
  page: { email?: string; error?: boolean } = {},
) {
  return renderPage(
    ctx,
    'verify-expired',
    { csrf: csrfToken(ctx, deps.config.issuer), email: page.email ?? '', error: page.error === true },
    { locale, status: 400, returnTo: '/account' },
  );
}

/** POST /email/verify/resend: a new verification link to the address typed, within the mail limits. */
export function resendFromExpiredLink(deps: InteractionDeps): RouterMiddleware {
  const { config, limits } = deps;
  return async function resendVerificationRoute(ctx) {
    const locale = localeFor(ctx, config);
    ctx.state.locale = locale;
    const body = await readCheckedForm(ctx);
    const email = (body.get('email') ?? '').trim();
    if (!email || email.length > 254) return showExpiredLink(ctx, deps, locale, { email, error: true });
    const account = await deps.accounts.findByEmail(email);
    const allowed = (await limits.mailPerIp.take(ctx.ip)) && (await limits.mailPerAddress.take(limitKeyFor(account, email)));
    if (!allowed)
      securityEvent('mail.throttled', { limit: 'mail', account_id: account?.id, email_domain: emailDomain(email), source: 'interaction' });
    // After the answer, as for a reset link: the answer's time must not depend on the address.
    else if (account && !account.emailVerified) mailAfterAnswer(ctx, () => deps.mail.sendVerification(account, locale));
    await renderPage(ctx, 'verify-resent', { email }, { locale, returnTo: '/account' });
  };
}

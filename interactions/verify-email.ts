// /email/verify?token=...: the link of the verification e-mail. Opening it (GET) only shows a confirm
// button, with the address it confirms: mail scanners and link previews open links by themselves, and a
// GET that verified would let them confirm someone's pre-registration of an address they do not own.
// Pressing the button (POST, with the anti-forgery token) uses the token and marks the address verified
// (userinfo then says email_verified: true); the token is single-use and expires, and a change of address
// ends it (src/account-page/email-change.ts). A link that no longer works offers to send a new one
// (verify-resend.ts).
//
// A link sent at a sign-up inside an authorization names its application on both pages and, once the
// address is verified, leads back to the sign-in it came from: /interaction/<uid>, which in the same
// browser resumes the authorization and elsewhere (or once expired) is the service's "Page expirée" page
// with its ways on. Never to a redirect URI: the application is reached only through the engine.
import type { RouterMiddleware } from '@koa/router';
import type { SignupOrigin } from '../src/accounts/email-tokens.ts';
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
    const link = token ? await tokens.peekVerification(token) : undefined;
    const account = link ? await deps.accounts.findById(link.accountId) : undefined;
    if (!link || !account) return showExpiredLink(ctx, deps, locale);
    // The address the button confirms, so that the reader knows which of their addresses this link is for.
    await renderPage(
      ctx,
      'verify-confirm',
      { csrf: csrfToken(ctx, config.issuer), token, email: account.email, app: await applicationOf(deps, link.origin) },
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
    const link = token ? await tokens.consumeVerification(token) : undefined;
    if (!link) return showExpiredLink(ctx, deps, locale);
    const { accountId } = link;
    await deps.accounts.markEmailVerified(accountId);
    securityEvent('email.verified', { account_id: accountId, reason: 'verification_link', source: 'interaction' });
    await renderPage(ctx, 'verified', { app: await applicationOf(deps, link.origin) }, { locale, returnTo: '/account' });
  };
}

/** The application a link was sent for and the sign-in to resume, while that application is still registered. */
async function applicationOf(
  deps: Pick<InteractionDeps, 'clients'>,
  origin: SignupOrigin | undefined,
): Promise<{ name: string; href: string } | null> {
  const client = origin ? await deps.clients.get(origin.clientId) : undefined;
  if (!origin || !client) return null;
  return { name: client.name, href: `/interaction/${encodeURIComponent(origin.interactionUid)}` };
}

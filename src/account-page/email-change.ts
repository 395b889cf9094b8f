// A change of e-mail address. POST /account/email (the new address and the current password) sends a
// single-use, expiring link to the NEW address; the account keeps its address, and signs in with it,
// until the link is used. The link (GET /account/email/confirm) only shows a confirm button, as the
// verification link does, since mail scanners open links by themselves; pressing it (POST) moves the
// account to the new address, marked verified, if no other account took it meanwhile, and tells the old
// address, with no link. Sessions stay: the person is the same.
//
// An address that another account already uses is not revealed: the form answers "a link was sent" all
// the same, and nothing is sent to anyone (that owner asked for nothing and their account is untouched).
import type Koa from 'koa';
import { accountLimitKey } from '../accounts/rate-limits.ts';
import { checkAccountDetails } from '../accounts/rules.ts';
import { DuplicateAccountError } from '../accounts/store.ts';
import { emailDomain, securityEvent } from '../log/security-log.ts';
import { logMailFailure } from '../mail/account-mail.ts';
import { csrfToken } from '../pages/anti-forgery.ts';
import { renderErrorPage } from '../pages/error-page.ts';
import { localeFor } from '../pages/language.ts';
import { renderPage } from '../pages/render.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { renderAccount } from './account-pages.ts';
import { backToAccount, readAccountForm, signedInAccount } from './account-sign-in.ts';
import { confirmPassword } from './password-confirmation.ts';

/** POST /account/email: a link to the new address, with the current password, within the mail limits. */
export function requestEmailChange(deps: AccountPageDeps): Koa.Middleware {
  return async function requestEmailChangeRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const newEmail = (body.get('new_email') ?? '').trim();
    const typed = { newEmail };
    if (checkAccountDetails({ ...account, email: newEmail }).some((problem) => problem.field === 'email')) {
      return renderAccount(ctx, deps, account, { locale, status: 400, typed, error: { form: 'email', message: 'signup.error.email' } });
    }
    if (newEmail.toLowerCase() === account.email.toLowerCase()) {
      return renderAccount(ctx, deps, account, { locale, status: 400, typed, error: { form: 'email', message: 'account.email.same' } });
    }
    if (!(await confirmPassword(ctx, deps, account, body.get('current_password') ?? '', { form: 'email', locale, typed }))) return;
    // Counted like every other e-mail, per connection and per account, whether or not one is sent.
    const allowed = (await deps.limits.mailPerIp.take(ctx.ip)) && (await deps.limits.mailPerAddress.take(accountLimitKey(account.id)));
    if (!allowed) {
      securityEvent('mail.throttled', {
        limit: 'mail',
        account_id: account.id,
        email_domain: emailDomain(newEmail),
        source: 'account_page',
      });
      return backToAccount(ctx, '?notice=email-throttled');
    }
    if (!(await deps.accounts.findByEmail(newEmail))) {
      // One pending change at a time: an earlier link, perhaps to a mistyped address, stops working.
      await deps.tokens.revokeAll(account.id, 'change-email');
      // Not waited for: the answer must not take longer when an address is free than when it is taken.
      void deps.mail.sendEmailChange(account, newEmail, locale).catch(logMailFailure);
    }
    backToAccount(ctx, '?notice=email-sent');
  };
}

/** GET /account/email/confirm?token=...: the new address and a confirm button, while the link is valid. */
export function showEmailChange(deps: AccountPageDeps): Koa.Middleware {
  return async function showEmailChangeRoute(ctx) {
    const locale = localeFor(ctx, deps.config);
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    // Only looked at: the link keeps working until the button is pressed.
    const pending = token ? await deps.tokens.peekEmailChange(token) : undefined;
    if (!pending) return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale, returnTo: '/account' });
    await renderPage(
      ctx,
      'email-change-confirm',
      { csrf: csrfToken(ctx, deps.config.issuer), token, email: pending.newEmail },
      { locale, returnTo: `/account/email/confirm?token=${encodeURIComponent(token)}` },
    );
  };
}

/** POST /account/email/confirm: uses the link; the account takes the new address, and the old one is told. */
export function confirmEmailChange(deps: AccountPageDeps): Koa.Middleware {
  return async function confirmEmailChangeRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const token = body.get('token') ?? '';
    const pending = token ? await deps.tokens.consumeEmailChange(token) : undefined;
    const account = pending && (await deps.accounts.findById(pending.accountId));
    if (!pending || !account) return renderErrorPage(ctx, { reason: 'invalidLink', status: 400, locale, returnTo: '/account' });
    try {
      await deps.accounts.changeEmail(account.id, pending.newEmail);
    } catch (error) {
      if (!(error instanceof DuplicateAccountError)) throw error;
      // Taken since the link was sent. Whoever reads this owns the mailbox: saying so reveals nothing.
      return backToAccount(ctx, '?notice=email-taken');
    }
    // Links sent to the old address (a reset, a verification) must not act on the account any more.
    for (const purpose of ['reset-password', 'verify-email', 'change-email'] as const) await deps.tokens.revokeAll(account.id, purpose);
    securityEvent('email.changed', { account_id: account.id, email_domain: emailDomain(pending.newEmail), source: 'account_page' });
    await deps.mail.sendEmailChanged(account, account.email, pending.newEmail, locale).catch(logMailFailure);
    backToAccount(ctx, '?notice=email-changed');
  };
}

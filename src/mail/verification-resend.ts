// A new verification link, for an address whose link was lost or expired: asked for from the expired-link
// page, from the account page ("Renvoyer le lien") or by an operator (`signin user verify-email --resend`).
// Every way goes through the limits of the other e-mails: per address (keyed on the account, as the
// reset link is) and, for a request from a browser, per client IP.
import { accountLimitKey, type RateLimits } from '../accounts/rate-limits.ts';
import type { Account } from '../accounts/store.ts';
import type { Locale } from '../i18n/index.ts';
import type { SecurityEventName } from '../log/security-events.ts';
import { emailDomain, securityEvent, type SecurityEventFields } from '../log/security-log.ts';
import type { AccountMail } from './account-mail.ts';

export interface ResendDeps {
  /** The per-IP limit counts requests from a browser (`ResendRequest.ip`). */
  limits: Pick<RateLimits, 'mailPerAddress'> & Partial<Pick<RateLimits, 'mailPerIp'>>;
  mail: Pick<AccountMail, 'sendVerification'>;
}

export type ResendOutcome = 'sent' | 'throttled' | 'alreadyVerified';

export interface ResendRequest {
  locale: Locale;
  /** The client IP of a request from a browser; none for the CLI. */
  ip?: string;
  source: NonNullable<SecurityEventFields['source']>;
  /** Where the refusal is logged: the request's log by default; the CLI writes its own lines. */
  log?: (name: SecurityEventName, fields: SecurityEventFields) => void;
}

/**
 * Counts the e-mail against the limits, then sends the link. The caller decides whether to wait for the
 * mail server (`send` resolves once it has answered); an address already verified gets nothing.
 */
export async function resendVerification(
  deps: ResendDeps,
  account: Account,
  request: ResendRequest,
): Promise<{ outcome: ResendOutcome; send?: Promise<void> }> {
  if (account.emailVerified) return { outcome: 'alreadyVerified' };
  const { ip } = request;
  const perIp = deps.limits.mailPerIp;
  const allowed =
    (ip === undefined || !perIp || (await perIp.take(ip))) && (await deps.limits.mailPerAddress.take(accountLimitKey(account.id)));
  if (!allowed) {
    (request.log ?? securityEvent)('mail.throttled', {
      limit: 'mail',
      account_id: account.id,
      email_domain: emailDomain(account.email),
      source: request.source,
    });
    return { outcome: 'throttled' };
  }
  return { outcome: 'sent', send: deps.mail.sendVerification(account, request.locale) };
}

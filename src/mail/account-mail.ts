// The two e-mails an account receives, each with its single-use link: the address verification and the
// password reset. The token is issued here, just before the message that carries it.
import type { EmailTokenStore } from '../accounts/email-tokens.ts';
import type { Account } from '../accounts/store.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { Locale } from '../i18n/index.ts';
import type { Mailer } from './mailer.ts';
import { composeMail } from './compose-mail.ts';

export class AccountMail {
  constructor(
    private readonly config: Pick<SignInConfig, 'issuer' | 'mail'>,
    private readonly tokens: Pick<EmailTokenStore, 'issue'>,
    private readonly mailer: Mailer,
  ) {}

  /** Sends the verification link of this account. */
  async sendVerification(account: Account, locale: Locale): Promise<void> {
    const ttl = this.config.mail.verifyLinkTtl;
    const token = await this.tokens.issue(account.id, 'verify-email', ttl);
    const link = `${this.config.issuer}/email/verify?token=${token}`;
    await this.mailer.send(await composeMail('verify', locale, account, link, ttl));
  }

  /** Sends a password-reset link. */
  async sendReset(account: Account, locale: Locale): Promise<void> {
    const ttl = this.config.mail.resetLinkTtl;
    const token = await this.tokens.issue(account.id, 'reset-password', ttl);
    const link = `${this.config.issuer}/password/reset?token=${token}`;
    await this.mailer.send(await composeMail('reset', locale, account, link, ttl));
  }
}

// A message that could not be sent is logged by its error code only: a mail server's error text may
// quote the recipient's address, and the message itself holds a live link.
export function logMailFailure(error: unknown): void {
  const code = (error as { code?: unknown; responseCode?: unknown } | undefined) ?? {};
  console.error('e-mail not sent', { code: String(code.code ?? 'unknown'), responseCode: code.responseCode ?? null });
}

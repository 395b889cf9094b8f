// The e-mails an account receives: the address verification and the password reset, each with its
// single-use link (the token is issued here, just before the message that carries it), and the notice
// of a sign-up attempted with the account's address.
import type { EmailTokenStore } from '../accounts/email-tokens.ts';
import type { Account } from '../accounts/store.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { Locale } from '../i18n/index.ts';
import { securityEvent } from '../log/security-log.ts';
import type { Brand } from '../pages/branding.ts';
import type { Mailer } from './mailer.ts';
import { composeMail, mailBrand, type MailBrand } from './compose-mail.ts';
import { composeSignupAttempt } from './signup-attempt-mail.ts';

export class AccountMail {
  constructor(
    private readonly config: Pick<SignInConfig, 'issuer' | 'mail' | 'branding'>,
    private readonly tokens: Pick<EmailTokenStore, 'issue'>,
    private readonly mailer: Mailer,
    /** The branding with its logo, once loaded (src/pages/branding.ts); else the config's name and links. */
    private readonly brand: Brand = { name: config.branding.serviceName, links: config.branding.links },
  ) {}

  /** The deployment's name, logo (as an absolute URL) and links, as the messages show them. */
  private brandIn(locale: Locale): MailBrand {
    return mailBrand(this.brand, locale, this.config.issuer);
  }

  /** Sends the verification link of this account. */
  async sendVerification(account: Account, locale: Locale): Promise<void> {
    const ttl = this.config.mail.verifyLinkTtl;
    const token = await this.tokens.issue(account.id, 'verify-email', ttl);
    const link = `${this.config.issuer}/email/verify?token=${token}`;
    await this.mailer.send(await composeMail('verify', locale, account, link, ttl, this.brandIn(locale)));
  }

  /** Tells the owner of this account that someone tried to sign up with its address. */
  async sendSignupAttempt(account: Account, locale: Locale): Promise<void> {
    const { issuer } = this.config;
    await this.mailer.send(
      await composeSignupAttempt(locale, account, { signIn: `${issuer}/account`, reset: `${issuer}/password/forgot` }, this.brandIn(locale)),
    );
  }

  /** Sends a password-reset link. */
  async sendReset(account: Account, locale: Locale): Promise<void> {
    const ttl = this.config.mail.resetLinkTtl;
    const token = await this.tokens.issue(account.id, 'reset-password', ttl);
    const link = `${this.config.issuer}/password/reset?token=${token}`;
    await this.mailer.send(await composeMail('reset', locale, account, link, ttl, this.brandIn(locale)));
  }
}

// A message that could not be sent is logged by its error code only: a mail server's error text may
// quote the recipient's address, and the message itself holds a live link.
export function logMailFailure(error: unknown): void {
  const code = (error as { code?: unknown; responseCode?: unknown } | undefined) ?? {};
  const reason = [code.code ?? 'unknown', code.responseCode].filter((part) => part !== undefined && part !== null).join(' ');
  securityEvent('mail.failed', { reason });
}

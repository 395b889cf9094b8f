// The e-mails an account receives: the address verification and the password reset, each with its
// single-use link (the token is issued here, just before the message that carries it), and the notice
// of a sign-up attempted with the account's address. The account page's changes add the link to a new
// address and the notices after the fact (account-notices.ts): password changed, address changed, deleted.
import type { EmailTokenStore, SignupOrigin } from '../accounts/email-tokens.ts';
import type { Account } from '../accounts/store.ts';
import type { SignInConfig } from '../config/schema.ts';
import { describeDevice, type DeviceName } from '../accounts/device-name.ts';
import { translator, type Locale } from '../i18n/index.ts';
import { securityEvent } from '../log/security-log.ts';
import type { Brand } from '../pages/branding.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { composeMail, mailBrand, type MailBrand } from './compose-mail.ts';
import { composeSignupAttempt } from './signup-attempt-mail.ts';
import { composeAccountNotice } from './account-notices.ts';

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

  /** Sends the verification link of this account; one sent from inside an authorization remembers it (`origin`). */
  async sendVerification(account: Account, locale: Locale, origin?: SignupOrigin): Promise<void> {
    const ttl = this.config.mail.verifyLinkTtl;
    const token = await this.tokens.issue(account.id, 'verify-email', ttl, undefined, origin);
    const link = `${this.config.issuer}/email/verify?token=${token}`;
    await this.mailer.send(await composeMail('verify', locale, account, link, ttl, this.brandIn(locale)));
  }

  /** Tells the owner of this account that someone tried to sign up with its address. */
  async sendSignupAttempt(account: Account, locale: Locale): Promise<void> {
    const { issuer } = this.config;
    await this.mailer.send(
      await composeSignupAttempt(
        locale,
        account,
        { signIn: `${issuer}/account`, reset: `${issuer}/password/forgot` },
        this.brandIn(locale),
      ),
    );
  }

  /** Sends a password-reset link. */
  async sendReset(account: Account, locale: Locale): Promise<void> {
    const ttl = this.config.mail.resetLinkTtl;
    const token = await this.tokens.issue(account.id, 'reset-password', ttl);
    const link = `${this.config.issuer}/password/reset?token=${token}`;
    await this.mailer.send(await composeMail('reset', locale, account, link, ttl, this.brandIn(locale)));
  }

  /** Sends the link that moves the account to `newEmail`, to that address (the account keeps its own until it is used). */
  async sendEmailChange(account: Account, newEmail: string, locale: Locale): Promise<void> {
    const ttl = this.config.mail.verifyLinkTtl;
    const token = await this.tokens.issue(account.id, 'change-email', ttl, newEmail);
    const link = `${this.config.issuer}/account/email/confirm?token=${token}`;
    await this.mailer.send(
      await composeMail('changeEmail', locale, { email: newEmail, firstName: account.firstName }, link, ttl, this.brandIn(locale)),
    );
  }

  /** Tells the old address that the account now uses `newEmail`. */
  async sendEmailChanged(account: Account, oldEmail: string, newEmail: string, locale: Locale): Promise<void> {
    // No link: a reset from here would go to the new address, which the reader may not own.
    const to = { email: oldEmail, firstName: account.firstName };
    await this.mailer.send(await composeAccountNotice('emailChanged', locale, to, [], this.brandIn(locale), { email: newEmail }));
  }

  /** Tells the account's address that its password was changed. */
  async sendPasswordChanged(account: Account, locale: Locale): Promise<void> {
    const actions = [{ label: 'mail.notice.reset' as const, link: `${this.config.issuer}/password/forgot` }];
    await this.mailer.send(await composeAccountNotice('passwordChanged', locale, account, actions, this.brandIn(locale)));
  }

  /**
   * A passkey was added to the account, or removed from it (`name`: the passkey's). Its links sign nobody
   * in: the account page's list of passkeys, where an unknown one is removed, and the password reset.
   */
  async sendPasskeyAdded(account: Account, name: string, locale: Locale): Promise<void> {
    await this.sendPasskeyNotice('passkeyAdded', account, name, locale);
  }

  async sendPasskeyRemoved(account: Account, name: string, locale: Locale): Promise<void> {
    await this.sendPasskeyNotice('passkeyRemoved', account, name, locale);
  }

  private async sendPasskeyNotice(kind: 'passkeyAdded' | 'passkeyRemoved', account: Account, name: string, locale: Locale): Promise<void> {
    const actions = [
      { label: 'mail.passkey.list' as const, link: `${this.config.issuer}/account?task=passkeys` },
      { label: 'mail.notice.reset' as const, link: `${this.config.issuer}/password/forgot` },
    ];
    await this.mailer.send(await composeAccountNotice(kind, locale, account, actions, this.brandIn(locale), { name }));
  }

  /** Confirms to the former address that the account and its data are gone. */
  async sendAccountDeleted(account: Account, locale: Locale): Promise<void> {
    await this.mailer.send(await composeAccountNotice('accountDeleted', locale, account, [], this.brandIn(locale)));
  }

  /**
   * Tells the account's address that it has just signed in from a device it had never used: which one
   * (browser and system, nothing else), and when. Its links sign nobody in: the account page, where the
   * owner ends that device's session, and the password reset.
   */
  async sendNewDeviceSignIn(account: Account, device: DeviceName, at: Date, locale: Locale): Promise<void> {
    const { issuer } = this.config;
    const actions = [
      { label: 'mail.newDevice.sessions' as const, link: `${issuer}/account?task=sessions` },
      { label: 'mail.notice.reset' as const, link: `${issuer}/password/forgot` },
    ];
    // In UTC, said so: the service does not know the reader's time zone.
    const when = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
    const vars = { device: describeDevice(device, translator(locale)), date: when.format(at) };
    await this.mailer.send(await composeAccountNotice('newDeviceSignIn', locale, account, actions, this.brandIn(locale), vars));
  }

  /** Sends a notice composed by another part of the service (the portal's, to an application's owner), with the deployment's branding. */
  async sendComposed(locale: Locale, compose: (brand: MailBrand) => Promise<OutgoingMail>): Promise<void> {
    await this.mailer.send(await compose(this.brandIn(locale)));
  }
}

// A message that could not be sent is logged by its error code only: a mail server's error text may
// quote the recipient's address, and the message itself holds a live link.
export function logMailFailure(error: unknown): void {
  const code = (error as { code?: unknown; responseCode?: unknown } | undefined) ?? {};
  const reason = [code.code ?? 'unknown', code.responseCode].filter((part) => part !== undefined && part !== null).join(' ');
  securityEvent('mail.failed', { reason });
}

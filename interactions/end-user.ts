// What the end-user pages share beyond the ServiceContext: e-mail links, the mailer, the rate limits
// and the session list. Built once per service (the interaction routes and the account page both ask),
// so that the engine's session events are followed exactly once.
import { AccountSessions } from '../src/accounts/sessions.ts';
import { EmailTokenStore } from '../src/accounts/email-tokens.ts';
import { createRateLimits, type RateLimits } from '../src/accounts/rate-limits.ts';
import type { Account } from '../src/accounts/store.ts';
import type { Locale } from '../src/i18n/index.ts';
import { createMailer, type Mailer } from '../src/mail/mailer.ts';
import { composeMail } from '../src/mail/messages.ts';
import type { ServiceContext } from '../src/service-context.ts';

export interface EndUserServices {
  tokens: EmailTokenStore;
  sessions: AccountSessions;
  limits: RateLimits;
  mailer: Mailer;
  /** Sends the verification link of this account. */
  sendVerification(account: Account, locale: Locale): Promise<void>;
  /** Sends a password-reset link. */
  sendReset(account: Account, locale: Locale): Promise<void>;
}

const built = new WeakMap<ServiceContext, EndUserServices>();

export function endUserServices(context: ServiceContext, overrides: { mailer?: Mailer } = {}): EndUserServices {
  const existing = built.get(context);
  if (existing) return existing;
  const { config, db } = context;
  const tokens = new EmailTokenStore(db);
  const sessions = new AccountSessions(db, context.provider);
  sessions.track();
  const limits = createRateLimits(config.rateLimit, { db, redis: context.redis, redisKeyPrefix: config.storage.redis?.keyPrefix });
  const mailer = overrides.mailer ?? createMailer(config.mail);
  const services: EndUserServices = {
    tokens,
    sessions,
    limits,
    mailer,
    async sendVerification(account, locale) {
      const token = await tokens.issue(account.id, 'verify-email', config.mail.verifyLinkTtl);
      const link = `${config.issuer}/email/verify?token=${token}`;
      await mailer.send(await composeMail('verify', locale, account, link, config.mail.verifyLinkTtl));
    },
    async sendReset(account, locale) {
      const token = await tokens.issue(account.id, 'reset-password', config.mail.resetLinkTtl);
      const link = `${config.issuer}/password/reset?token=${token}`;
      await mailer.send(await composeMail('reset', locale, account, link, config.mail.resetLinkTtl));
    },
  };
  built.set(context, services);
  return services;
}

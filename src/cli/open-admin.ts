// What the user-administration commands need beyond the stores: the engine, to end an account's
// sessions wherever they are stored (src/provider/account-sessions.ts, as "sign out everywhere"
// does), the grant revocation, the rate-limit counters and the mail. The engine built here serves
// no request and signs nothing: it gets a throwaway key, since it cannot be built without one.
import { AccountSessionStore } from '../accounts/sessions.ts';
import { createRateLimits } from '../accounts/rate-limits.ts';
import { EmailTokenStore } from '../accounts/email-tokens.ts';
import type { SignInConfig } from '../config/schema.ts';
import { grantRevocation } from '../grants/revoke.ts';
import { generateSigningKey } from '../keys/signing-keys.ts';
import { AccountMail } from '../mail/account-mail.ts';
import { createMailer } from '../mail/mailer.ts';
import { loadBrand } from '../pages/branding.ts';
import { accountSessions } from '../provider/account-sessions.ts';
import { createProvider } from '../provider/create-provider.ts';
import type { AccountAdminDeps } from '../users/account-admin.ts';
import { withEngineStores, type EngineStores } from './open-stores.ts';

export type AdminStores = EngineStores &
  Pick<AccountAdminDeps, 'sessions' | 'grants' | 'limits'> & {
    mail: AccountMail;
  };

export async function withAdminStores<T>(config: SignInConfig, fn: (stores: AdminStores) => Promise<T>): Promise<T> {
  return withEngineStores(config, async (stores) => {
    const { db, adapters, accounts, clients, consents, redis } = stores;
    const grants = grantRevocation(adapters, consents);
    const records = new AccountSessionStore(db);
    const keys = [generateSigningKey('RS256')];
    const provider = createProvider(config, {
      adapters,
      accounts,
      clients,
      consents,
      keys,
      tokens: { revokeGrant: grants.revokeGrant },
      sessions: records,
    });
    const limits = createRateLimits(config.rateLimit, { db, redis, redisKeyPrefix: config.storage.redis?.keyPrefix });
    const mail = new AccountMail(config, new EmailTokenStore(db), createMailer(config.mail), await loadBrand(config.branding));
    return fn({ ...stores, grants, sessions: accountSessions(provider, records), limits, mail });
  });
}

// What the account page is given by the service: the stores and services its routes use, nothing more.
import type Provider from 'oidc-provider';
import type { RateLimits } from '../accounts/rate-limits.ts';
import type { AccountSessions } from '../accounts/sessions.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { ClientRegistry } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { ConsentStore } from '../consents/store.ts';
import type { GrantRevocation } from '../grants/revoke.ts';
import type { AccountMail } from '../mail/account-mail.ts';

export interface AccountPageDeps {
  config: SignInConfig;
  /** The engine: the account page signs in with the engine's own session (engine-session.ts). */
  provider: Provider;
  accounts: Pick<AccountStore, 'findById' | 'findByEmail' | 'authenticate' | 'setPassword'>;
  clients: Pick<ClientRegistry, 'get'>;
  consents: Pick<ConsentStore, 'listForAccount' | 'forget'>;
  limits: Pick<RateLimits, 'loginPerAccount' | 'loginPerIp' | 'mailPerAddress' | 'mailPerIp'>;
  /** A new verification link ("Renvoyer le lien"). */
  mail: Pick<AccountMail, 'sendVerification'>;
  sessions: Pick<AccountSessions, 'endAll'>;
  grants: Pick<GrantRevocation, 'revokeGrant' | 'revokeAccountGrants'>;
}

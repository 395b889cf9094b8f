// What the sign-in pages (the interactions and the e-mail links) are given by the service: the stores
// and services their routes use, nothing more.
import type Provider from 'oidc-provider';
import type { EmailTokenStore } from '../src/accounts/email-tokens.ts';
import type { RateLimits } from '../src/accounts/rate-limits.ts';
import type { AccountSessions } from '../src/accounts/sessions.ts';
import type { AccountStore } from '../src/accounts/store.ts';
import type { ClientRegistry } from '../src/clients/registry.ts';
import type { SignInConfig } from '../src/config/schema.ts';
import type { ConsentStore } from '../src/consents/store.ts';
import type { GrantRevocation } from '../src/grants/revoke.ts';
import type { AccountMail } from '../src/mail/account-mail.ts';
import type { Passkeys } from '../src/passkeys/passkeys.ts';
import type { PhoneService } from '../src/phone/phone-service.ts';

export interface InteractionDeps {
  config: Pick<SignInConfig, 'issuer' | 'languages'> & Partial<Pick<SignInConfig, 'fedcm' | 'phone'>>;
  /** The engine: its interaction API, and the grants the consent step saves. */
  provider: Provider;
  accounts: Pick<
    AccountStore,
    'create' | 'findById' | 'findByEmail' | 'findForSignIn' | 'setPassword' | 'markEmailVerified' | 'usernameConflict' | 'details'
  >;
  clients: Pick<ClientRegistry, 'get'>;
  consents: Pick<ConsentStore, 'record'>;
  limits: RateLimits;
  mail: Pick<AccountMail, 'sendVerification' | 'sendReset' | 'sendSignupAttempt' | 'sendPasskeyAdded'>;
  tokens: Pick<EmailTokenStore, 'peek' | 'consume' | 'revokeAll' | 'peekVerification' | 'consumeVerification'>;
  sessions: Pick<AccountSessions, 'endAll'>;
  grants: Pick<GrantRevocation, 'revokeAccountGrants'>;
  /** Passkeys: the login page's button and autofill, the offer after a password sign-in (src/passkeys/). */
  passkeys: Passkeys;
  /** Phone sign-in, when the deployment turns it on (src/phone/). */
  phone?: PhoneService;
}

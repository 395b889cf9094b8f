// What the account page is given by the service: the stores and services its routes use, nothing more.
import type Provider from 'oidc-provider';
import type { Queryable } from '../../adapters/sql/database.ts';
import type { EmailTokenStore } from '../accounts/email-tokens.ts';
import type { RateLimits } from '../accounts/rate-limits.ts';
import type { AccountSessions } from '../accounts/sessions.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { ClientRegistry } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { ConsentStore } from '../consents/store.ts';
import type { GrantRevocation } from '../grants/revoke.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { Passkeys } from '../passkeys/passkeys.ts';
import type { PhoneService } from '../phone/phone-service.ts';

export interface AccountPageDeps {
  config: SignInConfig;
  /** The engine: the account page signs in with the engine's own session (engine-session.ts). */
  provider: Provider;
  /** The data download reads the account's session count here, as `signin user export` does. */
  db: Queryable;
  accounts: Pick<
    AccountStore,
    'findById' | 'findByEmail' | 'findForSignIn' | 'setPassword' | 'details' | 'setDisabled' | 'delete' | 'changeEmail' | 'changeProfile'
  >;
  /**
   * `list` and `delete`: the deletion of the account looks at the applications it registered in the portal;
   * `ensureFirstPartyClient`: sign-up from the page goes through a client of its own (account-sign-up.ts).
   */
  clients: Pick<ClientRegistry, 'get' | 'list' | 'delete' | 'ensureFirstPartyClient'>;
  consents: Pick<ConsentStore, 'listForAccount' | 'forget'>;
  limits: Pick<RateLimits, 'loginPerAccount' | 'loginPerIp' | 'mailPerAddress' | 'mailPerIp'>;
  /** The verification link, the change-of-address link, and the notices after a change. */
  mail: Pick<
    AccountMail,
    | 'sendVerification'
    | 'sendEmailChange'
    | 'sendEmailChanged'
    | 'sendPasswordChanged'
    | 'sendAccountDeleted'
    | 'sendPasskeyAdded'
    | 'sendPasskeyRemoved'
    | 'sendComposed'
  >;
  /** Change-of-address links: read and used by their confirm page, older ones ended by a new request. */
  tokens: Pick<EmailTokenStore, 'peekEmailChange' | 'consumeEmailChange' | 'revokeAll'>;
  sessions: AccountSessions;
  grants: Pick<GrantRevocation, 'revokeGrant' | 'revokeAccountGrants' | 'revokeClientGrants'>;
  /** The account's passkeys: listed, added, renamed and removed on the page (passkeys.ts). */
  passkeys: Passkeys;
  /** Phone numbers on the account (src/phone/), when the deployment turns phone sign-in on. */
  phone?: PhoneService;
}

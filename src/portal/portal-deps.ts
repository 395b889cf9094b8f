// What the portal is given by the service, and what every portal route works with: that, plus the
// portal's first-party client and its cookies.
import type Provider from 'oidc-provider';
import type { RateLimits } from '../accounts/rate-limits.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { ClientRegistry } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { CookieJar } from '../pages/cookies.ts';
import type { FlashStore } from './flash.ts';
import type { PortalSessionRecords } from './portal-session.ts';
import type { PortalClient } from './portal-client.ts';

export interface PortalServices {
  config: Pick<SignInConfig, 'issuer' | 'languages' | 'portal' | 'secrets'>;
  /** The engine: the portal redeems its codes and checks its owners' service sessions in-process. */
  provider: Provider;
  /** `findForSignIn` and `limits`: the password asked again before an owner's action (fresh-sign-in.ts). */
  accounts: Pick<AccountStore, 'findById' | 'findForSignIn'>;
  limits: Pick<RateLimits, 'loginPerAccount' | 'loginPerIp'>;
  clients: Pick<ClientRegistry, 'ensureFirstPartyClient' | 'get' | 'list' | 'create' | 'update' | 'rotateSecret' | 'delete'>;
  /** Sends the owner's notices (owner-notices.ts) with the service's mailer and branding. */
  mail: Pick<AccountMail, 'sendComposed'>;
  /** The server-side records of portal sessions (portal-session.ts). */
  portalSessions: PortalSessionRecords;
}

export interface PortalDeps extends PortalServices {
  client: PortalClient;
  jar: CookieJar;
  flash: FlashStore;
}

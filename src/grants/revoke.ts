// Ends a grant: the grant itself and every code and token issued under it, wherever each model lives.
import type { AdapterFactory } from '../../adapters/adapter.ts';
import type { ConsentStore } from '../consents/store.ts';

const GRANT_BOUND_MODELS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'Grant'];

export async function revokeGrant(adapters: AdapterFactory, grantId: string): Promise<void> {
  await Promise.all(GRANT_BOUND_MODELS.map((model) => adapters(model).revokeByGrantId(grantId)));
  await adapters('Grant').destroy(grantId);
}

/**
 * Ends every grant an application was given and forgets its consents: what deleting an application
 * means, whether the server or the CLI deletes it.
 */
export async function revokeClientGrants(adapters: AdapterFactory, consents: ConsentStore, clientId: string): Promise<void> {
  for (const consent of await consents.listForClient(clientId)) await revokeGrant(adapters, consent.grantId);
  await consents.forget({ clientId });
}

/**
 * Ends every grant an account gave and forgets its consents: what a password reset or change means for
 * applications, since their refresh tokens outlive the sessions that were ended with the old password.
 */
export async function revokeAccountGrants(adapters: AdapterFactory, consents: ConsentStore, accountId: string): Promise<void> {
  for (const consent of await consents.listForAccount(accountId)) await revokeGrant(adapters, consent.grantId);
  await consents.forget({ accountId });
}

/** The revocations above bound to the service's storage, as the pages are given them. */
export interface GrantRevocation {
  revokeGrant(grantId: string): Promise<void>;
  revokeAccountGrants(accountId: string): Promise<void>;
  revokeClientGrants(clientId: string): Promise<void>;
}

export function grantRevocation(adapters: AdapterFactory, consents: ConsentStore): GrantRevocation {
  return {
    revokeGrant: (grantId) => revokeGrant(adapters, grantId),
    revokeAccountGrants: (accountId) => revokeAccountGrants(adapters, consents, accountId),
    revokeClientGrants: (clientId) => revokeClientGrants(adapters, consents, clientId),
  };
}

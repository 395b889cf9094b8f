// A browser signed in to the service, as the FedCM requests show it: an engine session (made through the
// engine door, as the account page makes one) and the FedCM cookie naming it, signed with the service's keys.
import { saveGrant, startSignedInSession } from '../../src/provider/engine.ts';
import { FEDCM_COOKIE } from '../../src/pages/fedcm-login-status.ts';
import type { FedcmWorld } from './fedcm-service.ts';

export async function signedInCookie(world: FedcmWorld, accountId = world.user.id): Promise<string> {
  const { provider } = world.service;
  const session = await startSignedInSession(provider, accountId, 3600);
  const value = `${FEDCM_COOKIE}=${session.uid}`;
  // The service's signer (src/http/cookie-keys.ts), as Koa's cookies use it: `<name>.sig` signs `<name>=<value>`.
  const signature = (world.service.app.keys as unknown as { sign(data: string): string }).sign(value);
  return `${value}; ${FEDCM_COOKIE}.sig=${signature}`;
}

/** The consent the user gave an application on the consent page: a grant, and its record. */
export async function giveConsent(world: FedcmWorld, clientId: string, scopes = ['openid', 'email'], accountId = world.user.id) {
  const grantId = await saveGrant(world.service.provider, { accountId, clientId, scopes });
  await world.service.context.consents.record({ accountId, clientId, grantId, scopes });
  return grantId;
}

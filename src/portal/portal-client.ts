// The portal signs owners in as an ordinary OIDC client of this very service, so they use the same
// login page (and the same session) as every user. This registers that first-party client at start.
import { createHash } from 'node:crypto';
import type { ClientRegistry } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';

export interface PortalClient {
  clientId: string;
  redirectUri: string;
  scopes: string[];
}

export const PORTAL_SCOPES = ['openid', 'email'];

/**
 * The client_id is derived from the issuer and the portal path rather than drawn at random: every
 * instance sharing the database computes the same id without coordinating, and a restart finds the
 * row again. It is not a secret (it travels in the authorize URL anyway).
 */
export function portalClientId(issuer: string, portalPath: string): string {
  return createHash('sha256').update(`signin-portal\0${issuer}\0${portalPath}`).digest('hex').slice(0, 32);
}

export function portalCallbackUrl(issuer: string, portalPath: string): string {
  return `${issuer}${portalPath}/callback`;
}

/**
 * First-party: the consent step grants its scopes without asking, and the account page does not list
 * it. Its secret is never known, the portal included: it redeems its codes in-process (code-exchange.ts).
 */
export async function ensurePortalClient(
  config: Pick<SignInConfig, 'issuer' | 'portal'>,
  clients: Pick<ClientRegistry, 'ensureFirstPartyClient'>,
): Promise<PortalClient> {
  const client: PortalClient = {
    clientId: portalClientId(config.issuer, config.portal.path),
    redirectUri: portalCallbackUrl(config.issuer, config.portal.path),
    scopes: PORTAL_SCOPES,
  };
  await clients.ensureFirstPartyClient({
    clientId: client.clientId,
    // Shown on the login page ("Connectez-vous pour continuer vers …"); names are not translated.
    name: 'Portail développeurs · Developer portal',
    description: 'Le portail où les développeurs enregistrent leurs applications.',
    redirectUris: [client.redirectUri],
    scopes: client.scopes,
  });
  return client;
}

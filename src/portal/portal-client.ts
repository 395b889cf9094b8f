// The portal signs owners in as an ordinary OIDC client of this very service, so they use the same
// login page (and the same session) as every user. This registers that first-party client at start.
import { createHash, randomBytes } from 'node:crypto';
import { hashClientSecret } from '../clients/credentials.ts';
import type { ServiceContext } from '../service-context.ts';

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
 * Upserts the row directly: ClientRegistry.create draws a random id and validates the redirect URI as
 * an app owner's would be (https required), whereas this one is the issuer's own address, whatever
 * scheme the operator chose. The secret is random and never kept: the portal redeems its codes
 * in-process (see code-exchange.ts), so nobody, the portal included, can authenticate as this client
 * at the token endpoint. A restart keeps the existing hash.
 */
export async function ensurePortalClient(context: Pick<ServiceContext, 'config' | 'db'>): Promise<PortalClient> {
  const { issuer, portal } = context.config;
  const client: PortalClient = {
    clientId: portalClientId(issuer, portal.path),
    redirectUri: portalCallbackUrl(issuer, portal.path),
    scopes: PORTAL_SCOPES,
  };
  await context.db.query(
    `INSERT INTO clients (client_id, secret_hash, name, description, app_type, redirect_uris, scopes, owner_id)
     VALUES ($1, $2, $3, $4, 'web', $5, $6, NULL)
     ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description,
       redirect_uris = EXCLUDED.redirect_uris, scopes = EXCLUDED.scopes`,
    [
      client.clientId,
      hashClientSecret(randomBytes(36).toString('base64url')),
      // Shown on the login page ("Connectez-vous pour continuer vers …"); names are not translated.
      'Portail développeurs · Developer portal',
      'Le portail où les développeurs enregistrent leurs applications.',
      JSON.stringify([client.redirectUri]),
      JSON.stringify(client.scopes),
    ],
  );
  return client;
}

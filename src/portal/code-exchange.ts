// Redeems the portal's authorization code in-process. The portal runs inside the service, so instead
// of authenticating over HTTP to its own token endpoint (with a secret it would have to keep), it
// hands the code to the engine door, which applies the token endpoint's checks: right client, exact
// redirect URI, not expired, not used, PKCE S256, consumed once.
import type Provider from 'oidc-provider';
import { redeemAuthorizationCode, type CodeRedemption, type RedeemedCode } from '../provider/engine.ts';

export type { CodeRedemption, RedeemedCode };

/** Who the code was issued to, or undefined when the code must be refused. */
export async function redeemPortalCode(provider: Provider, redemption: CodeRedemption): Promise<RedeemedCode | undefined> {
  return redeemAuthorizationCode(provider, redemption);
}

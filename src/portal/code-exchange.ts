// Redeems the portal's authorization code in-process. The portal runs inside the service, so instead
// of authenticating over HTTP to its own token endpoint (with a secret it would have to keep), it
// reads the code through the engine's public model API and applies the same checks the token
// endpoint does: right client, exact redirect URI, not expired, not used, PKCE S256, consumed once.
import { createHash, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';

export interface CodeRedemption {
  code: string;
  verifier: string;
  clientId: string;
  redirectUri: string;
}

export interface RedeemedCode {
  accountId: string;
  /** The service session the code was issued in: the portal session lives no longer than it. */
  sessionUid?: string;
}

/** Who the code was issued to, or undefined when the code must be refused. */
export async function redeemPortalCode(provider: Provider, redemption: CodeRedemption): Promise<RedeemedCode | undefined> {
  const code = await provider.AuthorizationCode.find(redemption.code);
  // `consumed` is in the stored payload but missing from the engine's type declarations.
  if (!code || (code as { consumed?: unknown }).consumed || code.isExpired) return undefined;
  if (code.clientId !== redemption.clientId || code.redirectUri !== redemption.redirectUri) return undefined;
  if (code.codeChallengeMethod !== 'S256' || typeof code.codeChallenge !== 'string') return undefined;
  if (!sameString(code.codeChallenge, createHash('sha256').update(redemption.verifier).digest('base64url'))) return undefined;
  await code.consume();
  return code.accountId ? { accountId: code.accountId, sessionUid: code.sessionUid } : undefined;
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// Redeems an authorization code in-process, for a client that runs inside the service (the portal) and
// so holds no secret to authenticate to its own token endpoint. The checks are the token endpoint's
// (lib/actions/grants/authorization_code.js): right client, exact redirect URI, not expired, not used,
// PKCE, then consumed once. Unlike the endpoint, a code without an S256 challenge is refused outright.
//
// Relies on oidc-provider 9.13:
// - lib/models/authorization_code.js (via base_model.js): static `find(code)`, the stored `consumed`,
//   `isExpired`, `clientId`, `redirectUri`, `codeChallenge(Method)`, `accountId`, `sessionUid`, `consume()`;
// - lib/helpers/pkce.js: the engine's PKCE comparison (see pkce.d.ts).
import type Provider from 'oidc-provider';
import checkPKCE from 'oidc-provider/lib/helpers/pkce.js';

export interface CodeRedemption {
  code: string;
  verifier: string;
  clientId: string;
  redirectUri: string;
}

export interface RedeemedCode {
  accountId: string;
  /** The engine session the code was issued in. */
  sessionUid?: string;
}

/** Who the code was issued to, or undefined when the code must be refused. */
export async function redeemAuthorizationCode(provider: Provider, redemption: CodeRedemption): Promise<RedeemedCode | undefined> {
  const code = await provider.AuthorizationCode.find(redemption.code);
  // `consumed` is in the stored payload (IN_PAYLOAD of lib/models/authorization_code.js) but missing
  // from the engine's type declarations.
  if (!code || ('consumed' in code && code.consumed) || code.isExpired) return undefined;
  if (code.clientId !== redemption.clientId || code.redirectUri !== redemption.redirectUri) return undefined;
  if (code.codeChallengeMethod !== 'S256' || !verifierMatches(redemption.verifier, code.codeChallenge)) return undefined;
  await code.consume();
  return code.accountId ? { accountId: code.accountId, sessionUid: code.sessionUid } : undefined;
}

/** True when `verifier` is well formed and hashes (S256) to `challenge`, as the engine decides it. */
export function verifierMatches(verifier: string, challenge: string | undefined): boolean {
  if (typeof challenge !== 'string') return false;
  try {
    checkPKCE(verifier, challenge, 'S256');
    return true;
  } catch {
    return false;
  }
}

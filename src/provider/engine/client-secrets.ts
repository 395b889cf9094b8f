// Hashed client secrets. The engine has no setting for them: it keeps `client_secret` as registered and
// compares it in constant time. We keep the hash there and replace that comparison.
//
// Relies on oidc-provider 9.13:
// - lib/models/client.js: `Client.prototype.compareClientSecret(actual)`, the engine's comparison, with
//   the registered secret on `this.clientSecret`;
// - lib/shared/client_auth.js: `await ctx.oidc.client.compareClientSecret(secret)` for
//   client_secret_basic and client_secret_post, so the replacement may be asynchronous (ours is a
//   synchronous SHA-256 comparison, see src/clients/credentials.ts).
import type Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import { verifyClientSecret } from '../../clients/credentials.ts';

/**
 * Asked before any secret is compared, with the client_id the engine looked up: false refuses the client
 * authentication (the client-authentication limits; the client_id of client_secret_post is in the body,
 * which only the engine reads).
 */
export type ClientAuthGate = (clientId: string) => Promise<boolean>;

export function useHashedClientSecrets(provider: Provider, gate?: ClientAuthGate): void {
  provider.Client.prototype.compareClientSecret = async function compareHashed(this: Client, actual: string) {
    if (gate && !(await gate(this.clientId))) return false;
    return verifyClientSecret(this.clientSecret ?? '', actual);
  };
}

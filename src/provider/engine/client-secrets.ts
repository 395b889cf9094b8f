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

export function useHashedClientSecrets(provider: Provider): void {
  provider.Client.prototype.compareClientSecret = function compareHashed(this: Client, actual: string) {
    return verifyClientSecret(this.clientSecret ?? '', actual);
  };
}

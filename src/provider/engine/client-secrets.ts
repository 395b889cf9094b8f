// Hashed client secrets. The engine has no setting for them: it keeps `client_secret` as registered and
// compares it in constant time. We keep the hash there and replace that comparison.
//
// A secret that does not match the engine's copy of the client costs one read of the registry, which asks
// whether the secret changed since that copy (`changedSecretHash`, src/provider/client-adapter.ts; not
// when the request read the client already). That read is what an unknown client_id costs too, so a wrong
// secret and an unknown client answer in the same time; and a secret rotated on another instance is
// accepted here at once.
//
// Relies on oidc-provider 9.13:
// - lib/models/client.js: `Client.prototype.compareClientSecret(actual)`, the engine's comparison, with
//   the registered secret on `this.clientSecret`;
// - lib/shared/client_auth.js: `await ctx.oidc.client.compareClientSecret(secret)` for
//   client_secret_basic and client_secret_post, so the replacement may be asynchronous (ours is a
//   synchronous SHA-256 comparison, see src/clients/credentials.ts);
// - lib/provider.js: the static `Provider.ctx`, the Koa context of the request being handled (entered by
//   lib/helpers/initialize_app.js for every engine route), whose `req` keys what one request has read.
import Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import { verifyClientSecret } from '../../clients/credentials.ts';

/**
 * Asked before any secret is compared, with the client_id the engine looked up: false refuses the client
 * authentication (the client-authentication limits; the client_id of client_secret_post is in the body,
 * which only the engine reads).
 */
export type ClientAuthGate = (clientId: string) => Promise<boolean>;

/** The registry's secret hash of a client when it is no longer `held`; undefined when it still is. */
export type ChangedSecretHash = (clientId: string, held: string) => Promise<string | undefined>;

/**
 * The hash of the secret a rotation replaced while its overlap lasts (migration 022), from the copy of the
 * client in memory: a rolling deployment still on the old secret costs no read.
 */
export type PreviousSecretHash = (clientId: string) => Promise<string | undefined>;

export function useHashedClientSecrets(
  provider: Provider,
  gate?: ClientAuthGate,
  changedSecretHash?: ChangedSecretHash,
  previousSecretHash?: PreviousSecretHash,
): void {
  provider.Client.prototype.compareClientSecret = async function compareHashed(this: Client, actual: string) {
    const allowed = !gate || (await gate(this.clientId));
    const held = this.clientSecret ?? '';
    if (allowed && verifyClientSecret(held, actual)) return true;
    const previous = allowed ? await previousSecretHash?.(this.clientId) : undefined;
    if (previous !== undefined && verifyClientSecret(previous, actual)) return true;
    // Refused or wrong: the registry is read either way, as an unknown client_id is looked for.
    const changed = await changedSecretHash?.(this.clientId, held);
    return allowed && changed !== undefined && verifyClientSecret(changed, actual);
  };
}

/** The engine request being handled (its Node request, one object per request); undefined outside one. */
export function engineRequest(): object | undefined {
  return Provider.ctx?.req;
}

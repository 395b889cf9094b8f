// Gives a running engine a new set of signing keys, so that a rotation is picked up without a restart.
// The engine reads its keys at each use from its internal state (never a copy taken at start), and the
// function that builds that state from a JWKS at construction can be called again:
//
// Relies on oidc-provider 9.13:
// - lib/helpers/initialize_keystore.js: the default export `initialize(jwks)`, called by the Provider
//   constructor with the provider as `this`. It checks every key (a bad one throws before the keys in
//   use change), builds a new KeyStore, then assigns the internal `keystore` and the public `jwks`
//   in one synchronous step: a request sees the old set or the new one, never a mix. It only ever adds
//   to the signing algorithms the engine advertises, which the same keys' algorithms already are.
// - lib/models/id_token.js (and the userinfo and introspection signers): `keystore.selectForSign({ alg })`
//   at each signature, taking the first key of that algorithm in the keystore's order;
//   lib/helpers/jwt.js verifies against any key of the keystore whose kid matches (id_token_hint).
// - lib/actions/jwks.js: the JWKS endpoint answers the internal `jwks` at each request.
import type Provider from 'oidc-provider';
import initializeKeystore from 'oidc-provider/lib/helpers/initialize_keystore.js';
import { poolSigningKeys, type EngineSigningKey } from './pool-signing-keys.ts';

/** Replaces the engine's keys: it signs with the first key of each algorithm, and publishes them all. */
export function replaceSigningKeys(provider: Provider, keys: readonly EngineSigningKey[]): void {
  initializeKeystore.call(provider, { keys: poolSigningKeys(keys) });
}

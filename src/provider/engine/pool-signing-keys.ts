// The signing keys as the engine is given them: each private JWK wrapped in the engine's
// `ExternalSigningKey`, which signs with node:crypto on libuv's thread pool.
//
// Why: given a private JWK, the engine signs through jose, whose WebCrypto call does its key handling,
// header checks and encoding on the event loop before the signature itself goes to the pool: 85 to
// 165 µs of the event loop per RSA signature, against 30 to 55 µs for `crypto.sign` with a callback
// (the same signature, 1.2 to 1.4 ms of CPU either way, off the event loop). Every token response with
// an ID token signs once, and on the token endpoint the event loop is what runs out first. The bytes
// are the same: RS256 and EdDSA signatures are deterministic, and an ES256 one verifies the same.
//
// Relies on oidc-provider 9.13:
// - lib/helpers/keystore.js: `ExternalSigningKey`, whose public members (kty, n, e, crv, x, y) come from
//   `keyObject()`, and `KeyStore#getKeyObject`, which hands the key itself to the signer and its
//   `keyObject()` to a verification (an id_token_hint);
// - lib/helpers/jwt.js: `sign` builds the JWS's header and payload itself and asks `key.sign(data)` for
//   the signature over them;
// - lib/helpers/initialize_keystore.js: such keys are accepted only with the experimental feature
//   `externalSigningSupport` enabled (configuration.ts), at the version acknowledged there.
import { createPrivateKey, createPublicKey, sign, type KeyObject, type SignKeyObjectInput } from 'node:crypto';
import { ExternalSigningKey } from 'oidc-provider';

/** A private JWK the engine accepts (RSA, EC or OKP with its private members, a kid and an alg). */
export type EngineSigningKey = { kid: string; alg: string; kty?: string };

/** The experimental feature's version this file was written against. */
export const EXTERNAL_SIGNING_ACK = 'experimental-01';

// How node:crypto signs for each JWS algorithm the service's keys carry (keys/generate.ts).
interface Signer {
  digest: string | null;
  dsaEncoding?: 'ieee-p1363';
}
const SIGNERS: ReadonlyMap<string, Signer> = new Map<string, Signer>([
  ['RS256', { digest: 'sha256' }],
  // A JWS carries an ECDSA signature as r || s (RFC 7518 §3.4), not DER.
  ['ES256', { digest: 'sha256', dsaEncoding: 'ieee-p1363' }],
  ['EdDSA', { digest: null }],
]);

export class PoolSigningKey extends ExternalSigningKey {
  readonly #public: KeyObject;
  /** What node:crypto is given for each signature: the digest, and the private key as it signs. */
  readonly #digest: string | null;
  readonly #key: KeyObject | SignKeyObjectInput;

  /** Throws on a key that is not a complete private JWK of an algorithm above: before the engine's keys change. */
  constructor(jwk: EngineSigningKey) {
    super();
    const signer = SIGNERS.get(jwk.alg);
    if (!signer) throw new TypeError(`signing key ${jwk.kid}: unsupported algorithm ${jwk.alg}`);
    const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
    this.#public = createPublicKey(privateKey);
    this.#digest = signer.digest;
    this.#key = signer.dsaEncoding ? { key: privateKey, dsaEncoding: signer.dsaEncoding } : privateKey;
    // Through the engine's own setters (its types declare the getters only).
    Object.assign(this, { kid: jwk.kid, alg: jwk.alg });
  }

  override keyObject(): KeyObject {
    return this.#public;
  }

  override sign(data: Uint8Array): Promise<Uint8Array> {
    // With a callback, node:crypto signs on libuv's thread pool.
    return new Promise((resolve, reject) =>
      sign(this.#digest, data, this.#key, (error, signature) => (error ? reject(error) : resolve(signature))),
    );
  }
}

/** The keys in the engine's form, in the same order (the first of an algorithm signs). */
export function poolSigningKeys(keys: readonly EngineSigningKey[]): PoolSigningKey[] {
  return keys.map((jwk) => new PoolSigningKey(jwk));
}

// What a relying party does with an ID token and the service's JWKS: find the key by kid, check the
// signature. Done with node:crypto alone, so that no library's JWKS cache hides what the JWKS holds.
import { createPublicKey, verify, type webcrypto } from 'node:crypto';

export interface Jwks {
  keys: Array<webcrypto.JsonWebKey & { kid: string; alg: string }>;
}

export async function fetchJwks(issuer: string): Promise<Jwks> {
  return (await fetch(`${issuer}/oauth/jwks`)).json() as Promise<Jwks>;
}

export function kidOf(jwt: string): string {
  return (JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;
}

/** Whether the JWKS holds the token's key and its signature verifies (RS256, ES256 or EdDSA). */
export function verifiesAgainst(jwt: string, jwks: Jwks): boolean {
  const [header, payload, signature] = jwt.split('.');
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid: string; alg: string };
  const jwk = jwks.keys.find((k) => k.kid === kid && k.alg === alg);
  if (!jwk) return false;
  return signatureVerifies(alg, jwk, Buffer.from(`${header}.${payload}`), Buffer.from(signature, 'base64url'));
}

/** Whether a JWS signature of `alg` over `data` verifies with the public JWK (an ECDSA one as r || s, RFC 7518 §3.4). */
export function signatureVerifies(alg: string, jwk: webcrypto.JsonWebKey, data: Buffer, signature: Buffer): boolean {
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  if (alg === 'ES256') return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  return verify(alg === 'EdDSA' ? null : 'sha256', data, key, signature);
}

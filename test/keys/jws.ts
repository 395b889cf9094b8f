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

/** Whether the JWKS holds the token's key and its signature verifies (RS256 or ES256). */
export function verifiesAgainst(jwt: string, jwks: Jwks): boolean {
  const [header, payload, signature] = jwt.split('.');
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid: string; alg: string };
  const jwk = jwks.keys.find((k) => k.kid === kid && k.alg === alg);
  if (!jwk) return false;
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const data = Buffer.from(`${header}.${payload}`);
  const sig = Buffer.from(signature, 'base64url');
  return alg === 'ES256' ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig) : verify('sha256', data, key, sig);
}

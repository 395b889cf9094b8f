// Generation of one signing key, shared by the database and the file stores.
import { generateKeyPairSync, createHash, type webcrypto } from 'node:crypto';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA';
export type PrivateJwk = webcrypto.JsonWebKey & { kid: string; alg: SigningAlgorithm; use: 'sig' };

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const;

export type PublicJwk = Omit<PrivateJwk, (typeof PRIVATE_MEMBERS)[number]>;

/** The key without its private members: what the JWKS publishes, and all a retired key keeps. */
export function publicPart(jwk: PublicJwk): PublicJwk {
  const copy: PrivateJwk = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy;
}

export function generateSigningKey(alg: SigningAlgorithm): PrivateJwk {
  const pair =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  const jwk = pair.privateKey.export({ format: 'jwk' });
  const publicJwk = pair.publicKey.export({ format: 'jwk' });
  // kid: a short digest of the public key (96 bits), stable and unique per key. In hex, so that no kid
  // begins with "-": `signin keys retire <kid>` would read such a kid as an option.
  const kid = createHash('sha256').update(JSON.stringify(publicJwk)).digest('hex').slice(0, 24);
  return { ...jwk, kid, alg, use: 'sig' };
}

/** RS256 first: the engine signs with the first key of an algorithm, and every client supports RS256. */
export function withRs256(algorithms: SigningAlgorithm[]): SigningAlgorithm[] {
  return ['RS256', ...algorithms.filter((a) => a !== 'RS256')];
}

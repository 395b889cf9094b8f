// Signing keys: generated once, on first start, and kept (in the database, shared by every instance,
// or in a JWKS file). Regenerating them at each start would invalidate every ID token in circulation.
import { generateKeyPairSync, createHash, type webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from '../../adapters/sql/database.ts';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA';
export type PrivateJwk = webcrypto.JsonWebKey & { kid: string; alg: SigningAlgorithm; use: 'sig' };

const LOCK_KEY = 727_514_002;

export function generateSigningKey(alg: SigningAlgorithm): PrivateJwk {
  const pair =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  const jwk = pair.privateKey.export({ format: 'jwk' });
  const publicJwk = pair.publicKey.export({ format: 'jwk' });
  // kid: a short digest of the public key, stable and unique per key.
  const kid = createHash('sha256').update(JSON.stringify(publicJwk)).digest('base64url').slice(0, 16);
  return { ...jwk, kid, alg, use: 'sig' };
}

export async function loadKeysFromDatabase(db: Database, algorithms: SigningAlgorithm[]): Promise<PrivateJwk[]> {
  return db.transaction(async (tx) => {
    // Two instances starting on an empty database must not both generate keys.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    const res = await tx.query<{ jwk: PrivateJwk }>('SELECT jwk FROM signing_keys ORDER BY created_at, kid');
    const keys = res.rows.map((r) => r.jwk);
    for (const alg of withRs256(algorithms)) {
      if (keys.some((k) => k.alg === alg)) continue;
      const key = generateSigningKey(alg);
      await tx.query('INSERT INTO signing_keys (kid, jwk) VALUES ($1, $2)', [key.kid, JSON.stringify(key)]);
      keys.push(key);
    }
    return keys;
  });
}

export function loadKeysFromFile(file: string, algorithms: SigningAlgorithm[]): PrivateJwk[] {
  const keys: PrivateJwk[] = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { keys: PrivateJwk[] }).keys : [];
  const missing = withRs256(algorithms).filter((alg) => !keys.some((k) => k.alg === alg));
  if (missing.length) {
    keys.push(...missing.map(generateSigningKey));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
  }
  return keys;
}

/** RS256 first: the engine signs with the first key of an algorithm, and every client supports RS256. */
function withRs256(algorithms: SigningAlgorithm[]): SigningAlgorithm[] {
  return ['RS256', ...algorithms.filter((a) => a !== 'RS256')];
}

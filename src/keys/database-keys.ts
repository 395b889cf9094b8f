// Signing keys kept in the database, shared by every instance; encrypted at rest when
// `secrets.keyEncryptionKey` is set (every instance shares the config, hence the same key).
import type { Database, Queryable } from '../../adapters/sql/database.ts';
import { ConfigError } from '../config/config-error.ts';
import { deriveKeyEncryptionKey, isSealed, openJwk, sealJwk, type SealedJwk } from './encryption.ts';
import { generateSigningKey, withRs256, type PrivateJwk, type SigningAlgorithm } from './generate.ts';

const LOCK_KEY = 727_514_002;
const FIELD = 'secrets.keyEncryptionKey';

export async function loadKeysFromDatabase(db: Database, algorithms: SigningAlgorithm[], keyEncryptionKey?: string): Promise<PrivateJwk[]> {
  const key = keyEncryptionKey === undefined ? undefined : deriveKeyEncryptionKey(keyEncryptionKey);
  return db.transaction(async (tx) => {
    // Two instances starting on an empty database must not both generate keys (nor both re-encrypt).
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    const res = await tx.query<{ kid: string; jwk: PrivateJwk | SealedJwk }>('SELECT kid, jwk FROM signing_keys ORDER BY created_at, kid');
    const keys: PrivateJwk[] = [];
    for (const row of res.rows) keys.push(await readRow(tx, row.kid, row.jwk, key));
    for (const alg of withRs256(algorithms)) {
      if (keys.some((k) => k.alg === alg)) continue;
      const generated = generateSigningKey(alg);
      await tx.query('INSERT INTO signing_keys (kid, jwk) VALUES ($1, $2)', [generated.kid, stored(generated, key)]);
      keys.push(generated);
    }
    return keys;
  });
}

/**
 * Rows written in clear (before a key was configured) are still read, and encrypted in place, so that
 * turning encryption on is a config change with no migration step.
 */
async function readRow(tx: Queryable, kid: string, jwk: PrivateJwk | SealedJwk, key: Buffer | undefined): Promise<PrivateJwk> {
  if (!isSealed(jwk)) {
    if (key) await tx.query('UPDATE signing_keys SET jwk = $2 WHERE kid = $1', [kid, stored(jwk, key)]);
    return jwk;
  }
  if (!key) {
    throw new ConfigError([{ field: FIELD, message: 'the signing keys in the database are encrypted: set the key they were encrypted with' }]);
  }
  try {
    return openJwk(jwk, kid, key);
  } catch {
    // Never the key nor the row in the message: only which setting to look at.
    throw new ConfigError([{ field: FIELD, message: `does not decrypt signing key ${kid} in the database: it is not the key the signing keys were encrypted with` }]);
  }
}

const stored = (jwk: PrivateJwk, key: Buffer | undefined): string => JSON.stringify(key ? sealJwk(jwk, key) : jwk);

// Signing keys kept in the database, shared by every instance; encrypted at rest when
// `secrets.keyEncryptionKey` is set (every instance shares the config, hence the same key).
import type { Database, Queryable } from '../../adapters/sql/database.ts';
import { ConfigError } from '../config/config-error.ts';
import { deriveKeyEncryptionKey, isSealed, openJwk, sealJwk, type SealedJwk } from './encryption.ts';
import { generateSigningKey, publicPart, withRs256, type PrivateJwk, type SigningAlgorithm } from './generate.ts';
import type { SigningKey } from './key-schedule.ts';

const LOCK_KEY = 727_514_002;
const FIELD = 'secrets.keyEncryptionKey';

interface Row {
  kid: string;
  jwk: PrivateJwk | SealedJwk;
  created_at: Date;
  activates_at: Date;
  retired_at: Date | null;
}

const COLUMNS = 'kid, jwk, created_at, activates_at, retired_at';

/**
 * The published keys, at the start of an instance: a missing algorithm gets a key (signing at once, as
 * no other key of its algorithm does), and keys stored in clear are encrypted once a key is configured.
 */
export async function loadKeysFromDatabase(db: Database, algorithms: SigningAlgorithm[], keyEncryptionKey?: string): Promise<SigningKey[]> {
  const key = keyEncryptionKey === undefined ? undefined : deriveKeyEncryptionKey(keyEncryptionKey);
  return db.transaction(async (tx) => {
    // Two instances starting on an empty database must not both generate keys (nor both re-encrypt).
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    const res = await tx.query<Row>(`SELECT ${COLUMNS} FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at, kid`);
    const keys: SigningKey[] = [];
    for (const row of res.rows) {
      if (!isSealed(row.jwk) && key) await tx.query('UPDATE signing_keys SET jwk = $2 WHERE kid = $1', [row.kid, stored(row.jwk, key)]);
      keys.push(toKey(row, openRow(row, key)));
    }
    for (const alg of withRs256(algorithms)) {
      if (keys.some((k) => k.alg === alg)) continue;
      keys.push(await insertKey(tx, generateSigningKey(alg), undefined, key));
    }
    return keys;
  });
}

/** Every key as stored now, retired ones included (with their public part only). Reads, never writes. */
export async function readDatabaseKeys(db: Queryable, keyEncryptionKey?: string): Promise<SigningKey[]> {
  const key = keyEncryptionKey === undefined ? undefined : deriveKeyEncryptionKey(keyEncryptionKey);
  const res = await db.query<Row>(`SELECT ${COLUMNS} FROM signing_keys ORDER BY created_at, kid`);
  return res.rows.map((row) => toKey(row, row.retired_at ? (row.jwk as PrivateJwk) : openRow(row, key)));
}

/** Stores a new key, published from now on and signing from `activatesAt` (now when unset). */
export async function addDatabaseKey(
  db: Queryable,
  jwk: PrivateJwk,
  activatesAt: Date | undefined,
  keyEncryptionKey?: string,
): Promise<SigningKey> {
  const key = keyEncryptionKey === undefined ? undefined : deriveKeyEncryptionKey(keyEncryptionKey);
  return insertKey(db, jwk, activatesAt, key);
}

/** Takes a key out of the JWKS for good: its private part is erased, its public part kept for the record. */
export async function retireDatabaseKey(db: Queryable, kid: string, publicJwk: SigningKey['jwk']): Promise<void> {
  await db.query('UPDATE signing_keys SET retired_at = now(), jwk = $2 WHERE kid = $1 AND retired_at IS NULL', [
    kid,
    JSON.stringify(publicPart(publicJwk)),
  ]);
}

async function insertKey(db: Queryable, jwk: PrivateJwk, activatesAt: Date | undefined, key: Buffer | undefined): Promise<SigningKey> {
  const res = await db.query<Row>(
    `INSERT INTO signing_keys (kid, jwk, activates_at) VALUES ($1, $2, COALESCE($3::timestamptz, now())) RETURNING ${COLUMNS}`,
    [jwk.kid, stored(jwk, key), activatesAt?.toISOString() ?? null],
  );
  return toKey(res.rows[0], jwk);
}

const toKey = (row: Row, jwk: SigningKey['jwk']): SigningKey => ({
  kid: row.kid,
  alg: jwk.alg,
  jwk,
  createdAt: new Date(row.created_at),
  activatesAt: new Date(row.activates_at),
  retiredAt: row.retired_at ? new Date(row.retired_at) : undefined,
});

/** Rows written in clear (before a key was configured) are read as they are. */
function openRow(row: Row, key: Buffer | undefined): PrivateJwk {
  if (!isSealed(row.jwk)) return row.jwk;
  if (!key) {
    throw new ConfigError([
      { field: FIELD, message: 'the signing keys in the database are encrypted: set the key they were encrypted with' },
    ]);
  }
  try {
    return openJwk(row.jwk, row.kid, key);
  } catch {
    // Never the key nor the row in the message: only which setting to look at.
    throw new ConfigError([
      {
        field: FIELD,
        message: `does not decrypt signing key ${row.kid} in the database: it is not the key the signing keys were encrypted with`,
      },
    ]);
  }
}

const stored = (jwk: PrivateJwk, key: Buffer | undefined): string => JSON.stringify(key ? sealJwk(jwk, key) : jwk);

// Where the signing keys live, behind one interface: the database (shared by every instance, the
// default) or a JWKS file. The server reads them through it, and `signin keys` changes them.
import type { Database, Queryable } from '../../adapters/sql/database.ts';
import type { SignInConfig } from '../config/schema.ts';
import { addDatabaseKey, loadKeysFromDatabase, readDatabaseKeys, retireDatabaseKey } from './database-keys.ts';
import { addFileKey, loadKeysFromFile, readFileKeys, removeFileKey } from './file-keys.ts';
import type { PrivateJwk } from './generate.ts';
import type { SigningKey } from './key-schedule.ts';

type KeysConfig = Pick<SignInConfig, 'keys' | 'secrets'>;

export interface KeySource {
  /** Where the keys are, for messages: "the database" or the file's path. */
  readonly where: string;
  /** Every key as stored now. */
  read(): Promise<SigningKey[]>;
  /** Stores a new key, published at once and signing from `activatesAt` (at once when unset). */
  add(jwk: PrivateJwk, activatesAt?: Date): Promise<SigningKey>;
  /** Takes a key out of the JWKS and erases its private part. */
  retire(key: SigningKey): Promise<void>;
}

/** `db` is needed for keys in the database only. */
export function keySource(config: KeysConfig, db?: Queryable): KeySource {
  const file = config.keys.source === 'file' ? config.keys.file : undefined;
  if (file) {
    return {
      where: file,
      read: () => readFileKeys(file),
      add: (jwk, activatesAt) => addFileKey(file, jwk, activatesAt),
      retire: (key) => removeFileKey(file, key.kid),
    };
  }
  if (!db) throw new Error('the signing keys are in the database: open it first');
  const kek = config.secrets.keyEncryptionKey;
  return {
    where: 'the database',
    read: () => readDatabaseKeys(db, kek),
    add: (jwk, activatesAt) => addDatabaseKey(db, jwk, activatesAt, kek),
    retire: (key) => retireDatabaseKey(db, key.kid, key.jwk),
  };
}

/**
 * The keys at the start of an instance, generated on first start (one per configured algorithm, RS256
 * always) and kept: regenerating them at each start would invalidate every ID token in circulation.
 */
export function loadSigningKeys(config: KeysConfig, db: Database): Promise<SigningKey[]> {
  return config.keys.source === 'file'
    ? loadKeysFromFile(config.keys.file!, config.keys.algorithms)
    : loadKeysFromDatabase(db, config.keys.algorithms, config.secrets.keyEncryptionKey);
}

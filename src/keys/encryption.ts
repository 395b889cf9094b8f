// Encryption at rest of the private signing keys kept in the database, so that a dump of the table
// (a backup, a read replica, an SQL injection elsewhere) is not enough to mint ID tokens.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { PrivateJwk } from './generate.ts';

/** What the jsonb column holds for an encrypted key; `v` leaves room for another scheme later. */
export interface SealedJwk {
  v: 1;
  alg: 'A256GCM';
  iv: string;
  ct: string;
  tag: string;
}

// A fixed label: the same secret always derives the same key, on every instance that shares the config.
const HKDF_INFO = 'signin/signing-keys/A256GCM/v1';

/** 256-bit AES key derived from `secrets.keyEncryptionKey`, so any 32+ character text is usable. */
export function deriveKeyEncryptionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), HKDF_INFO, 32));
}

export function isSealed(value: unknown): value is SealedJwk {
  return typeof value === 'object' && value !== null && (value as SealedJwk).alg === 'A256GCM' && 'ct' in value;
}

// The kid is authenticated data: a sealed key copied onto another row's kid does not decrypt.
export function sealJwk(jwk: PrivateJwk, key: Buffer): SealedJwk {
  const iv = randomBytes(12); // random 96-bit IV, never reused under one key in practice (few keys)
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(jwk.kid, 'utf8'));
  const ct = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return {
    v: 1,
    alg: 'A256GCM',
    iv: iv.toString('base64url'),
    ct: ct.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
  };
}

/** Throws when `key` is not the one the JWK was sealed with (or the row was altered). */
export function openJwk(sealed: SealedJwk, kid: string, key: Buffer): PrivateJwk {
  if (sealed.v !== 1) throw new Error(`unknown signing key encryption version ${String(sealed.v)}`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'), { authTagLength: 16 }) // no truncated tags
    .setAAD(Buffer.from(kid, 'utf8'))
    .setAuthTag(Buffer.from(sealed.tag, 'base64url'));
  const clear = Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]);
  return JSON.parse(clear.toString('utf8')) as PrivateJwk;
}

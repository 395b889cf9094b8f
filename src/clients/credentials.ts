// Client credentials: a 32-character client_id and a 48-character client_secret drawn from a CSPRNG,
// in letters and digits so that they survive copy and paste, URLs and HTTP Basic unescaped.
import { hash, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomString(length: number): string {
  let out = '';
  // randomInt draws uniformly (rejection sampling inside), so every character has log2(62) bits.
  for (let i = 0; i < length; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export const newClientId = (): string => randomString(32);
export const newClientSecret = (): string => randomString(48);

/**
 * Secrets are 48 random characters (285 bits), so unlike passwords they cannot be guessed from a
 * fast hash: SHA-256 keeps the token endpoint fast while a dump of the table reveals no secret.
 */
export function hashClientSecret(secret: string): string {
  return `sha256$${hash('sha256', secret, 'base64url')}`;
}

export function verifyClientSecret(stored: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || !stored.startsWith('sha256$')) return false;
  const expected = Buffer.from(stored);
  const actual = Buffer.from(hashClientSecret(presented));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

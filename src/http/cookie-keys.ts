// The signer of every signed cookie, the engine's (session, interaction) and the pages' alike: what
// `app.keys` and the engine's `cookies.keys` take in place of an array of secrets, with the same
// interface as the `keygrip` package Koa would build from that array, and the same signatures
// (HMAC-SHA1 of the cookie's "name=value", base64url), so cookies signed before stay valid and key
// rotation works as before: the first key signs, any key verifies.
//
// Why not keygrip itself: Koa builds a new Keygrip for every request, which imports each secret again
// for every HMAC, and keygrip compares signatures by HMAC-ing both under a fresh random key (tsscmp), so
// one cookie read cost three HMACs and 32 random bytes: about 40 µs, and a sign-in reads a dozen signed
// cookies. Here each secret is imported once, and the signature as sent is compared with the expected
// one by crypto.timingSafeEqual, constant-time for their fixed length (27 characters).
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** What `cookies` (through Koa and the engine) calls on `keys`. */
export interface CookieKeys {
  sign(data: string): string;
  verify(data: string, digest: string): boolean;
  index(data: string, digest: string): number;
}

const ALGORITHM = 'sha1';

export function cookieKeys(secrets: readonly (string | Buffer)[]): CookieKeys {
  if (secrets.length === 0) throw new Error('cookie keys: at least one secret is needed');
  const keys: KeyObject[] = secrets.map((secret) => createSecretKey(typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret));
  const sign = (data: string, key: KeyObject): string => createHmac(ALGORITHM, key).update(data).digest('base64url');

  const index = (data: string, digest: string): number => {
    if (typeof digest !== 'string') return -1;
    // The text as sent, byte for byte, as keygrip compares it (no second spelling of a digest passes).
    const presented = Buffer.from(digest, 'utf8');
    for (let i = 0; i < keys.length; i++) {
      const expected = Buffer.from(sign(data, keys[i]!), 'latin1');
      // A signature of another length is none of ours; the length of ours is public anyway.
      if (expected.length === presented.length && timingSafeEqual(expected, presented)) return i;
    }
    return -1;
  };

  return {
    sign: (data) => sign(data, keys[0]!),
    verify: (data, digest) => index(data, digest) > -1,
    index,
  };
}

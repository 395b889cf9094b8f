import { hash } from 'node:crypto';

/**
 * The storage key of an engine id. Codes and tokens are their own ids, so keys are SHA-256 hashes:
 * a dump of the store lets nobody present a token. Tokens carry 256 bits of randomness, so an
 * unsalted hash is enough (nothing to guess).
 */
// crypto.hash: one call, a third of createHash().update().digest()'s cost, on every token read and write.
export function storageKey(id: string): string {
  return hash('sha256', id, 'base64url');
}

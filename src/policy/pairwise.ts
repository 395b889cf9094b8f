// Per-client pairwise subject: the same user gets a different, stable `sub` in every application, so
// two applications cannot match their users by identifier. HMAC-SHA256 under a secret salt of
// client_id and account id, NUL-separated so that no two pairs can be confused.
import { createHmac, createSecretKey } from 'node:crypto';

/** The subjects under one salt, which is imported as a key once rather than at every call (userinfo's). */
export function pairwiseSubjects(salt: string): (clientId: string, accountId: string) => string {
  const key = createSecretKey(Buffer.from(salt, 'utf8'));
  return (clientId, accountId) => createHmac('sha256', key).update(`${clientId}\0${accountId}`).digest('base64url');
}

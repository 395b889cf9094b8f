// Per-client pairwise subject: the same user gets a different, stable `sub` in every application, so
// two applications cannot match their users by identifier. HMAC-SHA256 under a secret salt of
// client_id and account id, NUL-separated so that no two pairs can be confused.
import { createHmac } from 'node:crypto';

export function pairwiseSub(salt: string, clientId: string, accountId: string): string {
  return createHmac('sha256', salt).update(`${clientId}\0${accountId}`).digest('base64url');
}

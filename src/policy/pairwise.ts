// Per-client pairwise subject: the same user gets a different, stable `sub` in every application, so
// two applications cannot match their users by identifier. HMAC-SHA256 under a secret salt of
// client_id and account id, NUL-separated so that no two pairs can be confused.
import { createHmac, createSecretKey } from 'node:crypto';

/** Pairs remembered per salt: an active user's subject is asked for on every userinfo call and refresh. */
const REMEMBERED_PAIRS = 10_000;

/**
 * The subjects under one salt, which is imported as a key once rather than at every call. A subject never
 * changes for a pair, so the last ones computed are kept (an HMAC costs about ten times the lookup).
 */
export function pairwiseSubjects(salt: string): (clientId: string, accountId: string) => string {
  const key = createSecretKey(Buffer.from(salt, 'utf8'));
  const known = new Map<string, string>();
  return (clientId, accountId) => {
    const pair = `${clientId}\0${accountId}`;
    let subject = known.get(pair);
    if (subject === undefined) {
      subject = createHmac('sha256', key).update(pair).digest('base64url');
      if (known.size >= REMEMBERED_PAIRS) known.clear();
      known.set(pair, subject);
    }
    return subject;
  };
}

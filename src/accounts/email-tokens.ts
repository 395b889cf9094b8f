// Single-use, expiring tokens sent by e-mail (address verification, password reset, change of address:
// that one also keeps the new address, which the account takes only when the link is used). The token itself
// only ever exists in the e-mail; the database keeps its SHA-256, so a dump holds no usable link.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../adapters/sql/database.ts';

export type EmailTokenPurpose = 'verify-email' | 'reset-password' | 'change-email';

/** What a change-of-address link holds: whose address changes, and to what. */
export interface PendingEmailChange {
  accountId: string;
  newEmail: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class EmailTokenStore {
  constructor(private readonly db: Queryable) {}

  /** A new token for this account and purpose, valid `ttlSeconds`; a change of address carries the new one. */
  async issue(accountId: string, purpose: EmailTokenPurpose, ttlSeconds: number, newEmail?: string): Promise<string> {
    // 256 bits: guessing is out of the question, and the rate of tries is bounded by the limiter anyway.
    const token = randomBytes(32).toString('base64url');
    await this.db.query(
      `INSERT INTO email_tokens (token_hash, purpose, account_id, expires_at, new_email)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5)`,
      [hashToken(token), purpose, accountId, ttlSeconds, newEmail ?? null],
    );
    // Housekeeping on the write path: links that expired a day ago are of no use to anyone.
    await this.db.query(`DELETE FROM email_tokens WHERE expires_at < now() - interval '1 day'`);
    return token;
  }

  /** The account of a valid token, marking it used in the same statement: exactly one use wins. */
  async consume(token: string, purpose: EmailTokenPurpose): Promise<string | undefined> {
    const res = await this.db.query<{ account_id: string }>(
      `UPDATE email_tokens SET used_at = now()
       WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
       RETURNING account_id`,
      [hashToken(token), purpose],
    );
    return res.rows[0]?.account_id;
  }

  /** The account of a valid token, without using it (the reset form is shown before it is submitted). */
  async peek(token: string, purpose: EmailTokenPurpose): Promise<string | undefined> {
    const res = await this.db.query<{ account_id: string }>(
      'SELECT account_id FROM email_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()',
      [hashToken(token), purpose],
    );
    return res.rows[0]?.account_id;
  }

  /** Ends every unused token of this purpose (after a password reset, older reset links must die). */
  async revokeAll(accountId: string, purpose: EmailTokenPurpose): Promise<void> {
    await this.db.query('UPDATE email_tokens SET used_at = now() WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL', [
      accountId,
      purpose,
    ]);
  }

  /** The change a valid change-of-address link would make, without using it (its confirm page). */
  async peekEmailChange(token: string): Promise<PendingEmailChange | undefined> {
    const res = await this.db.query<{ account_id: string; new_email: string | null }>(
      `SELECT account_id, new_email FROM email_tokens
       WHERE token_hash = $1 AND purpose = 'change-email' AND used_at IS NULL AND expires_at > now()`,
      [hashToken(token)],
    );
    return pendingChange(res.rows[0]);
  }

  /** Uses a valid change-of-address link (exactly one use wins) and says what it changes. */
  async consumeEmailChange(token: string): Promise<PendingEmailChange | undefined> {
    const res = await this.db.query<{ account_id: string; new_email: string | null }>(
      `UPDATE email_tokens SET used_at = now()
       WHERE token_hash = $1 AND purpose = 'change-email' AND used_at IS NULL AND expires_at > now()
       RETURNING account_id, new_email`,
      [hashToken(token)],
    );
    return pendingChange(res.rows[0]);
  }
}

function pendingChange(row: { account_id: string; new_email: string | null } | undefined): PendingEmailChange | undefined {
  return row?.new_email ? { accountId: row.account_id, newEmail: row.new_email } : undefined;
}

// Single-use, expiring tokens sent by e-mail (address verification, password reset, change of address:
// that one also keeps the new address, which the account takes only when the link is used). The token itself
// only ever exists in the e-mail; the database keeps its SHA-256, so a dump holds no usable link. A
// verification link sent at a sign-up inside an authorization also keeps where the user was going (its
// application and sign-in), so that its pages can lead back there.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../adapters/sql/database.ts';

export type EmailTokenPurpose = 'verify-email' | 'reset-password' | 'change-email';

/** What a change-of-address link holds: whose address changes, and to what. */
export interface PendingEmailChange {
  accountId: string;
  newEmail: string;
}

/** The authorization a verification link was sent from: the application, and the sign-in to resume. */
export interface SignupOrigin {
  clientId: string;
  interactionUid: string;
}

/** A valid verification link: whose address it verifies, and where the user was going when it was sent. */
export interface VerificationLink {
  accountId: string;
  origin?: SignupOrigin;
}

interface VerificationRow {
  account_id: string;
  client_id: string | null;
  interaction_uid: string | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class EmailTokenStore {
  constructor(private readonly db: Queryable) {}

  /**
   * A new token for this account and purpose, valid `ttlSeconds`; a change of address carries the new one,
   * a verification sent from inside an authorization that authorization's `origin`.
   */
  async issue(
    accountId: string,
    purpose: EmailTokenPurpose,
    ttlSeconds: number,
    newEmail?: string,
    origin?: SignupOrigin,
  ): Promise<string> {
    // 256 bits: guessing is out of the question, and the rate of tries is bounded by the limiter anyway.
    const token = randomBytes(32).toString('base64url');
    await this.db.query(
      `INSERT INTO email_tokens (token_hash, purpose, account_id, expires_at, new_email, client_id, interaction_uid)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6, $7)`,
      [hashToken(token), purpose, accountId, ttlSeconds, newEmail ?? null, origin?.clientId ?? null, origin?.interactionUid ?? null],
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

  /** A valid verification link's account and origin, without using it (its confirm page). */
  async peekVerification(token: string): Promise<VerificationLink | undefined> {
    const res = await this.db.query<VerificationRow>(
      `SELECT account_id, client_id, interaction_uid FROM email_tokens
       WHERE token_hash = $1 AND purpose = 'verify-email' AND used_at IS NULL AND expires_at > now()`,
      [hashToken(token)],
    );
    return verificationLink(res.rows[0]);
  }

  /** Uses a valid verification link (exactly one use wins) and says whose it was and where it came from. */
  async consumeVerification(token: string): Promise<VerificationLink | undefined> {
    const res = await this.db.query<VerificationRow>(
      `UPDATE email_tokens SET used_at = now()
       WHERE token_hash = $1 AND purpose = 'verify-email' AND used_at IS NULL AND expires_at > now()
       RETURNING account_id, client_id, interaction_uid`,
      [hashToken(token)],
    );
    return verificationLink(res.rows[0]);
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

function verificationLink(row: VerificationRow | undefined): VerificationLink | undefined {
  if (!row) return undefined;
  const origin = row.client_id && row.interaction_uid ? { clientId: row.client_id, interactionUid: row.interaction_uid } : undefined;
  return { accountId: row.account_id, origin };
}

// One-time codes sent to a phone: 6 digits, valid 5 minutes, 5 tries, used once. The database keeps an
// HMAC of each code (keyed with the installation's cookie keys), never the code: a dump of it cannot be
// read back into codes, even by trying the million possible ones. One code in flight per holder (the
// sign-in in progress, or the account adding a number): asking again replaces it.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../adapters/sql/database.ts';

export const CODE_DIGITS = 6;
export const CODE_SECONDS = 5 * 60;
export const CODE_TRIES = 5;

export type CodeChannel = 'sms' | 'whatsapp';

export interface IssuedCode {
  holder: string;
  phoneNumber: string;
  accountId: string | null;
  channel: CodeChannel;
}

/**
 * `ok`: the code matched, and is now used. `wrong`: it did not (`triesLeft` more may be made).
 * `expired`, `used`, `exhausted` (five wrong tries): no code of this holder can be entered any more.
 */
export type CodeCheck =
  | { ok: true; code: IssuedCode }
  | { ok: false; reason: 'wrong'; triesLeft: number }
  | { ok: false; reason: 'expired' | 'used' | 'exhausted' | 'none' };

interface Row {
  id: string;
  phone_number: string;
  account_id: string | null;
  code_hash: string | null;
  channel: CodeChannel;
  tries: number;
  used_at: Date | null;
  expired: boolean;
}

export class PhoneCodeStore {
  /** `keys`: the installation's cookie keys, newest first; a code made under an older one still checks. */
  constructor(
    private readonly db: Queryable,
    private readonly keys: readonly string[],
  ) {}

  /**
   * Records a new code for `holder` and returns it, to be sent. For a number no account holds
   * (`accountId` null, not while adding a number), a row without a code is kept, so that the code page
   * and its refusals behave alike, and nothing is returned to send.
   */
  async issue(code: IssuedCode, options: { send: boolean }): Promise<string | undefined> {
    const value = options.send ? String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0') : undefined;
    await this.db.query(
      `INSERT INTO phone_codes (id, phone_number, account_id, code_hash, channel, tries, used_at, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 0, NULL, now(), now() + ($6::int * interval '1 second'))
       ON CONFLICT (id) DO UPDATE SET phone_number = $2, account_id = $3, code_hash = $4, channel = $5, tries = 0,
         used_at = NULL, created_at = now(), expires_at = now() + ($6::int * interval '1 second')`,
      [code.holder, code.phoneNumber, code.accountId, value && this.hash(code.holder, value, this.keys[0]), code.channel, CODE_SECONDS],
    );
    return value;
  }

  /** The code in flight for `holder`, without its secret, while it may still be entered. */
  async pending(holder: string): Promise<IssuedCode | undefined> {
    const res = await this.db.query<Row>(
      `SELECT * FROM phone_codes WHERE id = $1 AND used_at IS NULL AND expires_at > now() AND tries < $2`,
      [holder, CODE_TRIES],
    );
    const row = res.rows[0];
    return row && toIssued(row);
  }

  /**
   * Checks a typed code. The try is counted before the comparison, in one statement, so that parallel
   * guesses cannot share a try; a right code is then marked used by a second statement that only one
   * request can win.
   */
  async check(holder: string, typed: string): Promise<CodeCheck> {
    const counted = await this.db.query<Row>(
      `UPDATE phone_codes SET tries = tries + 1
       WHERE id = $1 AND used_at IS NULL AND expires_at > now() AND tries < $2
       RETURNING *, false AS expired`,
      [holder, CODE_TRIES],
    );
    const row = counted.rows[0];
    if (!row) return { ok: false, reason: await this.whyClosed(holder) };
    if (!row.code_hash || !this.matches(holder, typed.replace(/\s/g, ''), row.code_hash)) {
      const triesLeft = CODE_TRIES - row.tries;
      return triesLeft > 0 ? { ok: false, reason: 'wrong', triesLeft } : { ok: false, reason: 'exhausted' };
    }
    const used = await this.db.query('UPDATE phone_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL', [holder]);
    if (used.rowCount === 0) return { ok: false, reason: 'used' };
    return { ok: true, code: toIssued(row) };
  }

  /** Ends the code of `holder` (a number removed, a sign-in given up). */
  async end(holder: string): Promise<void> {
    await this.db.query('DELETE FROM phone_codes WHERE id = $1', [holder]);
  }

  private async whyClosed(holder: string): Promise<'expired' | 'used' | 'exhausted' | 'none'> {
    const res = await this.db.query<Row>('SELECT *, expires_at <= now() AS expired FROM phone_codes WHERE id = $1', [holder]);
    const row = res.rows[0];
    if (!row) return 'none';
    if (row.used_at) return 'used';
    if (row.tries >= CODE_TRIES) return 'exhausted';
    return 'expired';
  }

  private matches(holder: string, typed: string, stored: string): boolean {
    if (!/^\d{6}$/.test(typed)) return false;
    const expected = Buffer.from(stored, 'base64url');
    return this.keys.some((key) => {
      const candidate = Buffer.from(this.hash(holder, typed, key), 'base64url');
      return candidate.length === expected.length && timingSafeEqual(candidate, expected);
    });
  }

  // Bound to its holder: a code's hash copied to another row matches nothing there.
  private hash(holder: string, code: string, key: string): string {
    return createHmac('sha256', key).update(`phone-code\0${holder}\0${code}`).digest('base64url');
  }
}

function toIssued(row: Row): IssuedCode {
  return { holder: row.id, phoneNumber: row.phone_number, accountId: row.account_id, channel: row.channel };
}

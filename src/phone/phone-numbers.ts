// The verified phone number of an account (migration 023): one per account, unique across accounts, in
// E.164, with the time it was verified (the start of its cooling-off period). Only a number whose code
// was entered is ever written here. `changed` tells the account caches (the claims of userinfo) at once.
import type { Queryable } from '../../adapters/sql/database.ts';

export interface NumberHolder {
  accountId: string;
  verifiedAt: Date;
  disabled: boolean;
}

export class PhoneNumberStore {
  constructor(
    private readonly db: Queryable,
    private readonly changed: (accountId: string) => void = () => {},
  ) {}

  async findByNumber(e164: string): Promise<NumberHolder | undefined> {
    const res = await this.db.query<{ id: string; phone_verified_at: Date; disabled_at: Date | null }>(
      'SELECT id, phone_verified_at, disabled_at FROM accounts WHERE phone_number = $1',
      [e164],
    );
    const row = res.rows[0];
    return row && { accountId: row.id, verifiedAt: new Date(row.phone_verified_at), disabled: row.disabled_at !== null };
  }

  /** The account's number and when it was verified, if it has one. */
  async numberOf(accountId: string): Promise<{ phoneNumber: string; verifiedAt: Date } | undefined> {
    const res = await this.db.query<{ phone_number: string | null; phone_verified_at: Date | null }>(
      'SELECT phone_number, phone_verified_at FROM accounts WHERE id = $1',
      [accountId],
    );
    const row = res.rows[0];
    return row?.phone_number ? { phoneNumber: row.phone_number, verifiedAt: new Date(row.phone_verified_at!) } : undefined;
  }

  /** Sets the account's verified number (replacing its former one); false when another account has it. */
  async setVerified(accountId: string, e164: string): Promise<boolean> {
    try {
      await this.db.query('UPDATE accounts SET phone_number = $2, phone_verified_at = now(), updated_at = now() WHERE id = $1', [
        accountId,
        e164,
      ]);
    } catch (error) {
      const constraint = (error as { constraint?: string }).constraint ?? String((error as Error).message);
      if (constraint.includes('accounts_phone_number_key')) return false;
      throw error;
    }
    this.changed(accountId);
    return true;
  }

  async remove(accountId: string): Promise<void> {
    await this.db.query('UPDATE accounts SET phone_number = NULL, phone_verified_at = NULL, updated_at = now() WHERE id = $1', [accountId]);
    this.changed(accountId);
  }
}

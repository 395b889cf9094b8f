// The passkeys of each account (migration 020): what a ceremony needs to check an assertion (the public
// key, the counter, the transports) and what the account page shows (a name, when it was created and last
// used, whether it is synced). No private key ever reaches the service: the public key is all there is.
import type { Queryable } from '../../adapters/sql/database.ts';

export type PasskeyDeviceType = 'singleDevice' | 'multiDevice';

export interface Passkey {
  /** The credential id the authenticator chose, base64url. */
  id: string;
  accountId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
  deviceType: PasskeyDeviceType;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type NewPasskey = Omit<Passkey, 'createdAt' | 'lastUsedAt'>;

/** The longest name kept for a passkey (the account page's rename form says so too). */
export const PASSKEY_NAME_MAX = 60;

interface Row {
  id: string;
  account_id: string;
  public_key: string;
  sign_count: string | number;
  transports: string[] | string;
  backup_eligible: boolean;
  backed_up: boolean;
  device_type: string;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const COLUMNS =
  'id, account_id, public_key, sign_count, transports, backup_eligible, backed_up, device_type, name, created_at, last_used_at';

function fromRow(row: Row): Passkey {
  return {
    id: row.id,
    accountId: row.account_id,
    publicKey: row.public_key,
    counter: Number(row.sign_count),
    transports: typeof row.transports === 'string' ? (JSON.parse(row.transports) as string[]) : row.transports,
    backupEligible: row.backup_eligible,
    backedUp: row.backed_up,
    deviceType: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    name: row.name,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
  };
}

export class PasskeyStore {
  constructor(private readonly db: Queryable) {}

  /** The account's passkeys, the newest first. */
  async list(accountId: string): Promise<Passkey[]> {
    const { rows } = await this.db.query<Row>(`SELECT ${COLUMNS} FROM passkeys WHERE account_id = $1 ORDER BY created_at DESC, id`, [
      accountId,
    ]);
    return rows.map(fromRow);
  }

  async find(id: string): Promise<Passkey | undefined> {
    const { rows } = await this.db.query<Row>(`SELECT ${COLUMNS} FROM passkeys WHERE id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Adds a passkey; false when a passkey of that credential id exists already (of this account or another). */
  async add(passkey: NewPasskey): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO passkeys (id, account_id, public_key, sign_count, transports, backup_eligible, backed_up, device_type, name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
      [
        passkey.id,
        passkey.accountId,
        passkey.publicKey,
        passkey.counter,
        JSON.stringify(passkey.transports),
        passkey.backupEligible,
        passkey.backedUp,
        passkey.deviceType,
        passkey.name.slice(0, PASSKEY_NAME_MAX),
      ],
    );
    return rowCount === 1;
  }

  /**
   * A sign-in with the passkey: its new counter, backup state and last use. The counter is written only
   * if it still is what the check read (`expectedCounter`): of two assertions racing with the same
   * counter, one wins, as a counter that goes back is refused. False when the row changed meanwhile.
   */
  async recordUse(id: string, expectedCounter: number, use: { counter: number; backedUp: boolean }): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE passkeys SET sign_count = $3, backed_up = $4, last_used_at = now() WHERE id = $1 AND sign_count = $2`,
      [id, expectedCounter, use.counter, use.backedUp],
    );
    return rowCount === 1;
  }

  /** Renames one of the account's passkeys; false when the account has no such passkey. */
  async rename(accountId: string, id: string, name: string): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE passkeys SET name = $3 WHERE account_id = $1 AND id = $2', [
      accountId,
      id,
      name.slice(0, PASSKEY_NAME_MAX),
    ]);
    return rowCount === 1;
  }

  /** Removes one of the account's passkeys; the removed passkey, or undefined when the account has no such one. */
  async remove(accountId: string, id: string): Promise<Passkey | undefined> {
    const { rows } = await this.db.query<Row>(`DELETE FROM passkeys WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [
      accountId,
      id,
    ]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Whether the account has declined the offer to create a passkey after a password sign-in. */
  async offerDeclined(accountId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ declined: boolean }>(
      'SELECT passkey_offer_declined_at IS NOT NULL AS declined FROM accounts WHERE id = $1',
      [accountId],
    );
    return rows[0]?.declined === true;
  }

  async declineOffer(accountId: string): Promise<void> {
    await this.db.query('UPDATE accounts SET passkey_offer_declined_at = now() WHERE id = $1 AND passkey_offer_declined_at IS NULL', [
      accountId,
    ]);
  }
}

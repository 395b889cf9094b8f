// Which engine sessions belong to which account. Sessions may live in Redis, where finding them by
// account would mean scanning every key; instead each signed-in session is recorded here before it is
// saved (by session uid, which stays the same when the engine rotates the session id), and "sign out
// everywhere" reads this list. The engine side (recording on save, ending sessions) is on the provider
// floor: src/provider/engine/session-storage.ts and src/provider/account-sessions.ts.
import type { Queryable } from '../../adapters/sql/database.ts';

/** What the pages ask of sessions: end every one of an account (returns how many were ended). */
export interface AccountSessions {
  endAll(accountId: string): Promise<number>;
}

export class AccountSessionStore {
  constructor(private readonly db: Queryable) {}

  async record(uid: string, accountId: string, expiresAtEpoch: number): Promise<void> {
    await this.db.query(
      `INSERT INTO account_sessions (session_uid, account_id, expires_at) VALUES ($1, $2, to_timestamp($3))
       ON CONFLICT (session_uid) DO UPDATE SET account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at`,
      [uid, accountId, expiresAtEpoch],
    );
  }

  async forget(uid: string): Promise<void> {
    await this.db.query('DELETE FROM account_sessions WHERE session_uid = $1', [uid]);
  }

  async uidsOf(accountId: string): Promise<string[]> {
    const res = await this.db.query<{ session_uid: string }>('SELECT session_uid FROM account_sessions WHERE account_id = $1', [accountId]);
    return res.rows.map((r) => r.session_uid);
  }

  /** Forgets the account's records (its sessions were ended), and expired ones on the way. */
  async forgetAccount(accountId: string): Promise<void> {
    await this.db.query('DELETE FROM account_sessions WHERE account_id = $1 OR expires_at < now()', [accountId]);
  }
}

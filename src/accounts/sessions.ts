// Which engine sessions belong to which account. Sessions may live in Redis, where finding them by
// account would mean scanning every key; instead each save is recorded here (by session uid, which
// stays the same when the engine rotates the session id), and "sign out everywhere" reads this list.
import type Provider from 'oidc-provider';
import type { Queryable } from '../../adapters/sql/database.ts';
import { findSessionByUid } from '../provider/engine.ts';

interface SessionLike {
  uid: string;
  accountId?: string;
  exp?: number;
}

export class AccountSessions {
  constructor(
    private readonly db: Queryable,
    private readonly provider: Provider,
  ) {}

  /** Follows the engine's session events. Failures are logged (without ids) and never break a sign-in. */
  track(): void {
    this.provider.on('session.saved', (session: SessionLike) => {
      if (!session.accountId || !session.exp) return;
      void this.record(session.uid, session.accountId, session.exp).catch(logFailure);
    });
    this.provider.on('session.destroyed', (session: SessionLike) => {
      void this.db.query('DELETE FROM account_sessions WHERE session_uid = $1', [session.uid]).catch(logFailure);
    });
  }

  async record(uid: string, accountId: string, expiresAtEpoch: number): Promise<void> {
    await this.db.query(
      `INSERT INTO account_sessions (session_uid, account_id, expires_at) VALUES ($1, $2, to_timestamp($3))
       ON CONFLICT (session_uid) DO UPDATE SET account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at`,
      [uid, accountId, expiresAtEpoch],
    );
  }

  /** Ends every session of the account, wherever the engine stores them; returns how many were found. */
  async endAll(accountId: string): Promise<number> {
    const res = await this.db.query<{ session_uid: string }>('SELECT session_uid FROM account_sessions WHERE account_id = $1', [accountId]);
    let ended = 0;
    for (const { session_uid: uid } of res.rows) {
      const session = await findSessionByUid(this.provider, uid);
      if (session) {
        await session.destroy();
        ended += 1;
      }
    }
    await this.db.query('DELETE FROM account_sessions WHERE account_id = $1 OR expires_at < now()', [accountId]);
    return ended;
  }
}

function logFailure(error: unknown): void {
  console.error('session tracking failed', { error: error instanceof Error ? error.message : String(error) });
}

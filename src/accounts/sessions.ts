// Which engine sessions belong to which account, and on which device each one is. Sessions may live in
// Redis, where finding them by account would mean scanning every key; instead each signed-in session is
// recorded here before it is saved (by session uid, which stays the same when the engine rotates the
// session id), and "sign out everywhere" and the account page's list of devices read these records. The
// engine side (recording on save, ending sessions, noticing each session's requests) is on the provider
// floor: src/provider/engine/session-storage.ts and src/provider/account-sessions.ts.
//
// No write per request: the engine saves a session on every request it serves with it, but a record is
// written again only when its expiry has moved by more than USE_WINDOW_SECONDS, or it changed accounts;
// the last use likewise. The record's expiry is the session's plus that window, so that it never ends
// before its session (an unwritten extension is always shorter than the window).
import type { Queryable } from '../../adapters/sql/database.ts';
import type { Locale } from '../i18n/index.ts';
import { deviceKey, fromDeviceKey, type DeviceName } from './device-name.ts';

/** How stale a record's expiry and last use may be: they are written at most this often per session. */
export const USE_WINDOW_SECONDS = 5 * 60;

/** One signed-in session, as the account page lists it. */
export interface SessionEntry {
  uid: string;
  device: DeviceName;
  signedInAt: Date;
  lastUsedAt: Date;
}

/** What the pages ask of sessions. */
export interface AccountSessions {
  /** Ends every session of the account (returns how many were ended). */
  endAll(accountId: string): Promise<number>;
  /** Ends one session of the account, wherever it is stored; false when the account has no such session. */
  endOne(accountId: string, uid: string): Promise<boolean>;
  /** The account's live sessions, the one used last first. */
  list(accountId: string): Promise<SessionEntry[]>;
  /** A request of a signed-in session was served: note its device and last use (at most once per window). */
  seen(session: { uid: string; accountId: string }, request: { userAgent: string | undefined; locale: Locale }): Promise<void>;
}

/** What a request of a session changed in its record. */
export type SeenOutcome =
  /** The session's first request: it has just signed in from this device. */
  { signedIn: true; newDevice: boolean } | { signedIn: false };

export class AccountSessionStore {
  constructor(private readonly db: Queryable) {}

  async record(uid: string, accountId: string, expiresAtEpoch: number): Promise<void> {
    // A session taken over by another account (the same browser signed in again as someone else) starts
    // afresh: not yet seen on its device, signed in now.
    await this.db.query(
      `INSERT INTO account_sessions (session_uid, account_id, expires_at)
       VALUES ($1, $2, to_timestamp($3) + make_interval(secs => $4))
       ON CONFLICT (session_uid) DO UPDATE SET
         expires_at = EXCLUDED.expires_at,
         account_id = EXCLUDED.account_id,
         device = CASE WHEN account_sessions.account_id = EXCLUDED.account_id THEN account_sessions.device END,
         signed_in_at = CASE WHEN account_sessions.account_id = EXCLUDED.account_id THEN account_sessions.signed_in_at ELSE now() END,
         last_used_at = now()
       WHERE account_sessions.account_id <> EXCLUDED.account_id
          OR account_sessions.expires_at < EXCLUDED.expires_at - make_interval(secs => $4)`,
      [uid, accountId, expiresAtEpoch, USE_WINDOW_SECONDS],
    );
  }

  /**
   * Notes that the session was used from `device`. The first time (the request that signed it in), also
   * says whether the account has signed in from that device before; the device is remembered from then on.
   */
  async seen(uid: string, accountId: string, device: DeviceName): Promise<SeenOutcome> {
    const key = deviceKey(device);
    // One statement, which also gives the device the record had before: NULL for a session not seen yet
    // (this request signed it in), '' for one that signed in before devices were noted (migration 018).
    const res = await this.db.query<{ before: string | null }>(
      `WITH before AS (SELECT device FROM account_sessions WHERE session_uid = $1 AND account_id = $2 FOR UPDATE)
       UPDATE account_sessions SET device = $3, last_used_at = now()
       FROM before
       WHERE session_uid = $1 AND (before.device IS DISTINCT FROM $3 OR last_used_at < now() - make_interval(secs => $4))
       RETURNING before.device AS before`,
      [uid, accountId, key, USE_WINDOW_SECONDS],
    );
    const before = res.rows[0]?.before;
    if (res.rows.length === 0 || (before !== null && before !== '')) return { signedIn: false };
    const known = await this.db.query<{ device: string }>('SELECT device FROM account_devices WHERE account_id = $1', [accountId]);
    await this.db.query(
      `INSERT INTO account_devices (account_id, device) VALUES ($1, $2)
       ON CONFLICT (account_id, device) DO UPDATE SET last_seen_at = now()`,
      [accountId, key],
    );
    if (before === '') return { signedIn: false };
    // The account's first device (its sign-up, or its first sign-in since devices were remembered) is
    // learnt silently: there is nothing to compare it with.
    const devices = known.rows.map((row) => row.device);
    return { signedIn: true, newDevice: devices.length > 0 && !devices.includes(key) };
  }

  /** The account's records not yet expired, the one used last first (their sessions may have ended since). */
  async entries(accountId: string): Promise<SessionEntry[]> {
    const res = await this.db.query<{ session_uid: string; device: string | null; signed_in_at: Date; last_used_at: Date }>(
      `SELECT session_uid, device, signed_in_at, last_used_at FROM account_sessions
       WHERE account_id = $1 AND expires_at > now() ORDER BY last_used_at DESC, signed_in_at DESC`,
      [accountId],
    );
    return res.rows.map((row) => ({
      uid: row.session_uid,
      device: row.device === null ? {} : fromDeviceKey(row.device),
      signedInAt: new Date(row.signed_in_at),
      lastUsedAt: new Date(row.last_used_at),
    }));
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

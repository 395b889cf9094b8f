// The durable record of what Redis could forget (migration 016): the revocations that keep a grant, held
// in memory by every instance and kept in step through Postgres NOTIFY, and the single use of each code.
// Redis may come back with an older state (a replica that lagged, a restore from a backup); this record,
// in SQL, does not. Ids are stored and held as their storage key (SHA-256, token-key.ts).
import { storageKey } from '../token-key.ts';
import type { Database } from './database.ts';
import type { Listener } from './listen.ts';

export const REVOCATIONS_CHANNEL = 'signin_revocations';

/** What a revocation names, with the epoch second after which nothing it ends could still be presented. */
export type Revocation =
  /** One access token, by its id. */
  | { kind: 'token'; id: string; expiresAt: number }
  /** Every token and code of a grant issued at or before `revokedAt` (epoch seconds). */
  | { kind: 'grant'; grantId: string; revokedAt: number; expiresAt: number };

/** What a token or code says of itself: its grant and when it was issued (epoch seconds). */
export interface Issued {
  grantId?: unknown;
  iat?: unknown;
}

export interface RevocationRecord {
  /** True when the token with this id was revoked. Reads memory only. */
  revokedToken(id: string): boolean;
  /** True when the tokens of this token's or code's grant were revoked after it was issued. Reads memory only. */
  revokedWithGrant(issued: Issued): boolean;
  /** Records the revocations durably, then in this instance's memory (the others learn them by NOTIFY). */
  revoke(revocations: Revocation[]): Promise<void>;
  /** The single use of a code: true for its first redemption, false when it was redeemed before. */
  redeemCode(id: string, expiresAt: number): Promise<boolean>;
  /** Takes back a redemption whose other half failed (the code stays usable, as nothing was issued). */
  forgetCode(id: string): Promise<void>;
  close(): Promise<void>;
}

/** How often, at most, memory drops the entries whose tokens have expired. */
const PRUNE_EVERY_SECONDS = 60;
const epoch = () => Math.floor(Date.now() / 1000);

/** The revocations in memory, by storage key: what `revoked_tokens` holds, or a little more (never less). */
class RevokedInMemory {
  /** Token key → expiry. */
  readonly tokens = new Map<string, number>();
  /** Grant key → the second up to which its tokens are revoked, and the record's expiry. */
  readonly grants = new Map<string, { revokedAt: number; expiresAt: number }>();
  #prunedAt = epoch();

  /** Adds one revocation; never takes one back (a later notice or load only widens it). */
  add(kind: string, key: string, revokedAt: number, expiresAt: number): void {
    const now = epoch();
    if (expiresAt <= now) return;
    if (kind === 'token') this.tokens.set(key, Math.max(expiresAt, this.tokens.get(key) ?? 0));
    else if (kind === 'grant') {
      const known = this.grants.get(key);
      this.grants.set(key, {
        revokedAt: Math.max(revokedAt, known?.revokedAt ?? 0),
        expiresAt: Math.max(expiresAt, known?.expiresAt ?? 0),
      });
    }
    if (now - this.#prunedAt >= PRUNE_EVERY_SECONDS) this.#prune(now);
  }

  /** A notice of migration 016's trigger: `kind:id_hash:revoked_at:expires_at`. */
  addNotice(payload: string): void {
    const [kind, key, revokedAt, expiresAt] = payload.split(':');
    if (kind && key && revokedAt && expiresAt) this.add(kind, key, Number(revokedAt), Number(expiresAt));
  }

  // An expired entry refuses nothing the engine would accept anyway: this only gives the memory back.
  #prune(now: number): void {
    this.#prunedAt = now;
    for (const [key, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(key);
    for (const [key, { expiresAt }] of this.grants) if (expiresAt <= now) this.grants.delete(key);
  }
}

const LOAD = `SELECT kind, id_hash, revoked_at::text AS revoked_at, floor(extract(epoch FROM expires_at))::text AS expires_at
  FROM revoked_tokens WHERE expires_at > now()`;

const RECORD = `INSERT INTO revoked_tokens (kind, id_hash, revoked_at, expires_at)
  SELECT kind, id_hash, revoked_at, to_timestamp(expires_at)
    FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) AS r(kind, id_hash, revoked_at, expires_at)
  ON CONFLICT (kind, id_hash) DO UPDATE SET revoked_at = greatest(revoked_tokens.revoked_at, EXCLUDED.revoked_at),
    expires_at = greatest(revoked_tokens.expires_at, EXCLUDED.expires_at)`;

/**
 * Loads the revocations still in force and listens for new ones (on Postgres a connection of its own,
 * on PGlite the store's own notices); rejects when the table cannot be read, so a service never starts
 * without them.
 */
export async function openRevocationRecord(db: Database): Promise<RevocationRecord> {
  const memory = new RevokedInMemory();
  const load = async () => {
    const { rows } = await db.query<{ kind: string; id_hash: string; revoked_at: string; expires_at: string }>(LOAD);
    for (const row of rows) memory.add(row.kind, row.id_hash, Number(row.revoked_at), Number(row.expires_at));
  };
  let loaded = false;
  const listener: Listener | undefined = db.listen?.(REVOCATIONS_CHANNEL, {
    message: (payload) => memory.addNotice(payload),
    // Notices sent while the connection was down are lost: read the table again. Memory only grows, so
    // a load that overlaps a notice loses nothing; one that fails is tried again at the next reconnection.
    reset: () => {
      if (loaded) void load().catch(() => {});
    },
  });
  try {
    await listener?.ready;
    // After LISTEN: a revocation recorded between this read and the first notice is in one or the other.
    await load();
    loaded = true;
  } catch (error) {
    await listener?.close();
    throw error;
  }

  return {
    revokedToken: (id) => memory.tokens.size > 0 && memory.tokens.has(storageKey(id)),

    revokedWithGrant(issued) {
      if (memory.grants.size === 0 || typeof issued.grantId !== 'string') return false;
      const grant = memory.grants.get(storageKey(issued.grantId));
      // Without an issue time it cannot be placed after the revocation: refused.
      return grant !== undefined && !(typeof issued.iat === 'number' && issued.iat > grant.revokedAt);
    },

    async revoke(revocations) {
      if (revocations.length === 0) return;
      const rows = revocations.map((r) =>
        r.kind === 'token'
          ? (['token', storageKey(r.id), 0, r.expiresAt] as const)
          : (['grant', storageKey(r.grantId), r.revokedAt, r.expiresAt] as const),
      );
      await db.query(RECORD, [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])]);
      for (const [kind, key, revokedAt, expiresAt] of rows) memory.add(kind, key, revokedAt, expiresAt);
    },

    async redeemCode(id, expiresAt) {
      const res = await db.query(`INSERT INTO redeemed_codes (id_hash, expires_at) VALUES ($1, to_timestamp($2)) ON CONFLICT DO NOTHING`, [
        storageKey(id),
        expiresAt,
      ]);
      return res.rowCount === 1;
    },

    async forgetCode(id) {
      await db.query('DELETE FROM redeemed_codes WHERE id_hash = $1', [storageKey(id)]);
    },

    close: async () => listener?.close(),
  };
}

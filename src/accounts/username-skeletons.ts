// The confusable skeleton of the usernames registered before migration 008: computed here (SQL cannot),
// in batches, for the accounts that have none. Run at each start; with nothing to do it is one query.
// Two old accounts whose names already looked alike cannot both hold their skeleton (it is unique): the
// older keeps it, the newer keeps none, and new names are still compared with the older one.
import type { Queryable } from '../../adapters/sql/database.ts';
import { usernameSkeleton } from './username-key.ts';

const BATCH = 500;
const UNIQUE_VIOLATION = '23505';

interface Pending {
  id: string;
  username: string;
  created_at: Date;
}

export async function backfillUsernameSkeletons(db: Queryable): Promise<number> {
  let filled = 0;
  let after: Pending | undefined;
  for (;;) {
    const res = await db.query<Pending>(
      `SELECT id, username, created_at FROM accounts
       WHERE username_skeleton IS NULL AND ($1::timestamptz IS NULL OR (created_at, id) > ($1::timestamptz, $2::text))
       ORDER BY created_at, id LIMIT $3`,
      [after?.created_at ?? null, after?.id ?? '', BATCH],
    );
    if (res.rows.length === 0) return filled;
    after = res.rows[res.rows.length - 1];
    // Oldest first: of two look-alikes in one batch, the first keeps the skeleton.
    const seen = new Set<string>();
    const batch = res.rows.flatMap((row) => {
      const skeleton = usernameSkeleton(row.username);
      if (seen.has(skeleton)) return [];
      seen.add(skeleton);
      return [{ id: row.id, skeleton }];
    });
    try {
      filled += await fill(db, batch);
    } catch (error) {
      // Another instance filled some of the same skeletons meanwhile: one row at a time, each alone.
      if (!isUniqueViolation(error)) throw error;
      for (const row of batch) {
        filled += await fill(db, [row]).catch((again: unknown) => {
          if (!isUniqueViolation(again)) throw again;
          return 0;
        });
      }
    }
  }
}

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string } | undefined)?.code === UNIQUE_VIOLATION;

/** Sets the skeletons that no other account holds yet; returns how many were set. */
async function fill(db: Queryable, rows: Array<{ id: string; skeleton: string }>): Promise<number> {
  const res = await db.query(
    `UPDATE accounts a SET username_skeleton = v.skeleton
     FROM (SELECT unnest($1::text[]) AS id, unnest($2::text[]) AS skeleton) v
     WHERE a.id = v.id AND a.username_skeleton IS NULL
       AND NOT EXISTS (SELECT 1 FROM accounts o WHERE o.username_skeleton = v.skeleton)`,
    [rows.map((r) => r.id), rows.map((r) => r.skeleton)],
  );
  return res.rowCount;
}

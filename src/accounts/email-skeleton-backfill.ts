// The accounts created before migration 017: their address in its stored form (the domain as an A-label,
// email-skeleton.ts) and its confusable skeleton, computed here (SQL cannot), in batches, for the accounts
// that have none. Run at each start; with nothing to do it is one query.
//
// Two old accounts whose addresses were already one address (look-alikes, or one domain written both ways)
// both stay: deleting or merging either is for a person to decide. The older keeps the skeleton, the newer
// keeps none (and its address as it was), so new addresses are compared with the older one; the newer ones
// are the accounts whose `email_skeleton` is still NULL after a start (docs/operations/user-administration.md).
import type { Queryable } from '../../adapters/sql/database.ts';
import { emailSkeleton, storedEmail } from './email-skeleton.ts';

const BATCH = 500;
const UNIQUE_VIOLATION = '23505';

interface Pending {
  id: string;
  email: string;
  created_at: Date;
}

interface Filled {
  id: string;
  email: string;
  skeleton: string;
}

export async function backfillEmailSkeletons(db: Queryable): Promise<number> {
  let filled = 0;
  let after: Pending | undefined;
  for (;;) {
    const res = await db.query<Pending>(
      `SELECT id, email, created_at FROM accounts
       WHERE email_skeleton IS NULL AND ($1::timestamptz IS NULL OR (created_at, id) > ($1::timestamptz, $2::text))
       ORDER BY created_at, id LIMIT $3`,
      [after?.created_at ?? null, after?.id ?? '', BATCH],
    );
    if (res.rows.length === 0) return filled;
    after = res.rows[res.rows.length - 1];
    // Oldest first: of two addresses that are one in one batch, the first keeps the skeleton.
    const seen = new Set<string>();
    const batch = res.rows.flatMap((row) => {
      const skeleton = emailSkeleton(row.email);
      if (seen.has(skeleton)) return [];
      seen.add(skeleton);
      return [{ id: row.id, email: storedEmail(row.email), skeleton }];
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

/**
 * Sets the skeletons that no other account holds yet, and the stored form of the address unless another
 * account already holds that form (a newer account not filled yet); returns how many were set.
 */
async function fill(db: Queryable, rows: Filled[]): Promise<number> {
  const res = await db.query(
    `UPDATE accounts a SET email_skeleton = v.skeleton,
       email = CASE WHEN EXISTS (SELECT 1 FROM accounts o WHERE lower(o.email) = lower(v.email) AND o.id <> a.id) THEN a.email ELSE v.email END
     FROM (SELECT unnest($1::text[]) AS id, unnest($2::text[]) AS email, unnest($3::text[]) AS skeleton) v
     WHERE a.id = v.id AND a.email_skeleton IS NULL
       AND NOT EXISTS (SELECT 1 FROM accounts o WHERE o.email_skeleton = v.skeleton)`,
    [rows.map((r) => r.id), rows.map((r) => r.email), rows.map((r) => r.skeleton)],
  );
  return res.rowCount;
}

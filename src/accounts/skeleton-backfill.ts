// The confusable skeletons of accounts created before their skeleton column existed: computed here (SQL
// cannot), in batches, oldest first, for the accounts that have none. Run at each start; with nothing to do
// it is one query. username-skeletons.ts and email-skeleton-backfill.ts say which columns.
//
// Two old accounts whose values already looked alike cannot both hold their skeleton (it is unique), and
// both stay: deleting or merging either is for a person to decide. The older keeps the skeleton, the newer
// keeps none, so new values are still compared with the older one; the newer ones are the accounts whose
// skeleton is still NULL after a start (for addresses, docs/operations/user-administration.md lists them).
import type { Queryable } from '../../adapters/sql/database.ts';

const BATCH = 500;
const UNIQUE_VIOLATION = '23505';

export interface SkeletonBackfill {
  /**
   * The column the skeleton is computed from, and the skeleton column. Both are interpolated into SQL, so
   * they are these constants, never input.
   */
  source: 'username' | 'email';
  skeleton: 'username_skeleton' | 'email_skeleton';
  skeletonOf(value: string): string;
  /**
   * When given, the source column is also rewritten to this stored form, unless another account already
   * holds that form (compared case-insensitively: a newer account not filled yet), which keeps its own.
   */
  storedForm?(value: string): string;
}

interface Pending {
  id: string;
  value: string;
  created_at: Date;
}

interface Filled {
  id: string;
  stored: string;
  skeleton: string;
}

/** Fills the missing skeletons of `columns`; returns how many accounts were filled. */
export async function backfillSkeletons(db: Queryable, columns: SkeletonBackfill): Promise<number> {
  const { source, skeleton: skeletonColumn, skeletonOf, storedForm } = columns;
  let filled = 0;
  let after: Pending | undefined;
  for (;;) {
    const res = await db.query<Pending>(
      `SELECT id, ${source} AS value, created_at FROM accounts
       WHERE ${skeletonColumn} IS NULL AND ($1::timestamptz IS NULL OR (created_at, id) > ($1::timestamptz, $2::text))
       ORDER BY created_at, id LIMIT $3`,
      [after?.created_at ?? null, after?.id ?? '', BATCH],
    );
    if (res.rows.length === 0) return filled;
    after = res.rows[res.rows.length - 1];
    // Oldest first: of two look-alikes in one batch, the first keeps the skeleton.
    const seen = new Set<string>();
    const batch = res.rows.flatMap((row) => {
      const skeleton = skeletonOf(row.value);
      if (seen.has(skeleton)) return [];
      seen.add(skeleton);
      return [{ id: row.id, stored: storedForm ? storedForm(row.value) : row.value, skeleton }];
    });
    try {
      filled += await fill(db, columns, batch);
    } catch (error) {
      // Another instance filled some of the same skeletons meanwhile: one row at a time, each alone.
      if (!isUniqueViolation(error)) throw error;
      for (const row of batch) {
        filled += await fill(db, columns, [row]).catch((again: unknown) => {
          if (!isUniqueViolation(again)) throw again;
          return 0;
        });
      }
    }
  }
}

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string } | undefined)?.code === UNIQUE_VIOLATION;

/** Sets the skeletons that no other account holds yet (and the stored forms); returns how many were set. */
async function fill(db: Queryable, { source, skeleton, storedForm }: SkeletonBackfill, rows: Filled[]): Promise<number> {
  const stored = storedForm
    ? `, ${source} = CASE WHEN EXISTS (SELECT 1 FROM accounts o WHERE lower(o.${source}) = lower(v.stored) AND o.id <> a.id)
         THEN a.${source} ELSE v.stored END`
    : '';
  const res = await db.query(
    `UPDATE accounts a SET ${skeleton} = v.skeleton${stored}
     FROM (SELECT unnest($1::text[]) AS id, unnest($2::text[]) AS stored, unnest($3::text[]) AS skeleton) v
     WHERE a.id = v.id AND a.${skeleton} IS NULL
       AND NOT EXISTS (SELECT 1 FROM accounts o WHERE o.${skeleton} = v.skeleton)`,
    [rows.map((r) => r.id), rows.map((r) => r.stored), rows.map((r) => r.skeleton)],
  );
  return res.rowCount;
}

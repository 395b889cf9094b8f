// The usernames registered before migration 008 get their confusable skeleton (skeleton-backfill.ts says
// which account keeps it when two old names already looked alike).
import type { Queryable } from '../../adapters/sql/database.ts';
import { backfillSkeletons } from './skeleton-backfill.ts';
import { usernameSkeleton } from './username-key.ts';

export const backfillUsernameSkeletons = (db: Queryable): Promise<number> =>
  backfillSkeletons(db, { source: 'username', skeleton: 'username_skeleton', skeletonOf: usernameSkeleton });

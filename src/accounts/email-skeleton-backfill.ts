// The accounts created before migration 017 get their address in its stored form (the domain as an A-label,
// email-skeleton.ts) and its confusable skeleton. Of two old addresses that were already one (look-alikes, or
// one domain written both ways), the newer also keeps its address as it was (skeleton-backfill.ts).
import type { Queryable } from '../../adapters/sql/database.ts';
import { emailSkeleton, storedEmail } from './email-skeleton.ts';
import { backfillSkeletons } from './skeleton-backfill.ts';

export const backfillEmailSkeletons = (db: Queryable): Promise<number> =>
  backfillSkeletons(db, { source: 'email', skeleton: 'email_skeleton', skeletonOf: emailSkeleton, storedForm: storedEmail });

// A grant set lists the records that still exist, not every token the grant was ever given: the same
// check for the Redis adapter on one server (redis.test.ts) and on a cluster (redis-cluster.test.ts).
import { expect } from 'vitest';
import type { ModelAdapter } from '../../adapters/adapter.ts';
import type { RedisClient } from '../../adapters/redis/connect.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { tokenId } from './contract.ts';

/** `tokens`: access tokens saved under `keyPrefix` through `redis`; `grantId`: a grant of this check only. */
export async function expectGrantSetOfLiveRecords(
  tokens: ModelAdapter,
  redis: RedisClient,
  keyPrefix: string,
  grantId: string,
): Promise<void> {
  const grantKey = `${keyPrefix}grant:${grantId}`;
  // A grant in use: each access token ends (destroyed here, as an expired one is gone) before the next.
  for (let i = 0; i < 20; i += 1) {
    const id = tokenId();
    await tokens.upsert(id, { kind: 'AccessToken', grantId }, 3600);
    await tokens.destroy(id);
  }
  expect(await redis.scard(grantKey)).toBeLessThanOrEqual(1);
  // A live record is never dropped: all ten are listed, and revoking the grant ends every one.
  const live = Array.from({ length: 10 }, () => tokenId());
  for (const id of live) await tokens.upsert(id, { kind: 'AccessToken', grantId }, 3600);
  const listed = await redis.smembers(grantKey);
  for (const id of live) expect(listed).toContain(`${keyPrefix}AccessToken:${storageKey(id)}`);
  await tokens.revokeByGrantId(grantId);
  for (const id of live) expect(await tokens.find(id)).toBeUndefined();
}

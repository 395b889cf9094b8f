// A benchmark run starts from an empty Redis prefix: the keys of the runs before it are deleted, every one of
// them however many, and nothing outside the prefix is touched.
import { afterEach, describe, expect, it } from 'vitest';
import { clearBenchKeys } from '../../bench/storage.ts';
import { freshRedis, TEST_REDIS_URL, type FreshRedis } from '../support/databases.ts';

describe('clearing a benchmark run’s Redis keys', () => {
  let store: FreshRedis | undefined;
  afterEach(async () => {
    await store?.cleanup();
    store = undefined;
  });

  it('deletes every key under the prefix, across several scan batches, and no other', async () => {
    store = await freshRedis();
    const { redis, keyPrefix } = store;
    const old = `${keyPrefix}run:`;
    const batch = redis.pipeline();
    for (let i = 0; i < 2500; i += 1) batch.set(`${old}AccessToken:${i}`, 'x', 'EX', 600);
    batch.hset(`${old}Session:1`, 'payload', '{}');
    batch.set(`${keyPrefix}kept:1`, 'x', 'EX', 600);
    await batch.exec();

    await clearBenchKeys(TEST_REDIS_URL, old);

    expect(await store.dump()).toEqual({ [`${keyPrefix}kept:1`]: 'x' });
  });
});

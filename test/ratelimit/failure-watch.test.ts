// Every instance knows which addresses failed a client authentication lately without reading Redis at
// each request (src/accounts/failure-watch.ts): each watch here is one instance, on the real Redis.
// An address is "clean" only while the instance is sure: it heard every failure since it read the set.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedis, type RedisClient } from '../../adapters/redis/connect.ts';
import { watchFailures, type FailureWatch } from '../../src/accounts/failure-watch.ts';
import { freshRedis, TEST_REDIS_URL, type FreshRedis } from '../support/databases.ts';
import { relayFor, type Relay } from '../storage/helpers/relay.ts';

let fresh: FreshRedis;
const opened: Array<{ watch: FailureWatch; redis?: RedisClient }> = [];
let names = 0;
/** A name of its own for each test: a set and a channel no other test touches. */
const newName = () => `${fresh.keyPrefix}rl:client-auth-ip:failing:${(names += 1)}`;

async function instance(name: string, windowSeconds = 600, redis: RedisClient = fresh.redis): Promise<FailureWatch> {
  const watch = await watchFailures(redis, { name, windowSeconds });
  opened.push({ watch, redis: redis === fresh.redis ? undefined : redis });
  return watch;
}

/** Waits for what another instance published to arrive (a message, a reconnection). */
async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  fresh = await freshRedis();
});
afterEach(async () => {
  for (const { watch, redis } of opened.splice(0)) {
    await watch.close();
    redis?.disconnect();
  }
});
afterAll(() => fresh.cleanup());

describe('failed client authentications, heard by every instance', () => {
  it('knows an address without failures as clean, and one that failed as not, here at once and elsewhere once heard', async () => {
    const name = newName();
    const [a, b] = [await instance(name), await instance(name)];
    expect(a.clean('ip-1')).toBe(true);
    expect(b.clean('ip-1')).toBe(true);

    await a.failed('ip-1');
    expect(a.clean('ip-1')).toBe(false);
    await until(() => !b.clean('ip-1'));
    expect(b.clean('ip-2')).toBe(true);
  });

  it('reads, when it starts, the failures other instances counted before', async () => {
    const name = newName();
    await (await instance(name)).failed('ip-1');
    const later = await instance(name);
    expect(later.clean('ip-1')).toBe(false);
    expect(later.clean('ip-2')).toBe(true);
  });

  it('forgets a failure once its window has passed, here and on an instance that starts later', async () => {
    const name = newName();
    const a = await instance(name, 1);
    await a.failed('ip-1');
    expect(a.clean('ip-1')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(a.clean('ip-1')).toBe(true);
    expect((await instance(name, 1)).clean('ip-1')).toBe(true);
  });

  it('keeps the failing keys it is given (hashed by the limiter) in one set, expiring with the window', async () => {
    const name = newName();
    await (await instance(name)).failed('k2Hc9Q_hashed-key');
    expect(await fresh.redis.zrange(name, '0', '-1')).toEqual(['k2Hc9Q_hashed-key']);
    expect(await fresh.redis.pttl(name)).toBeGreaterThan(590_000);
  });

  describe('with its connection to Redis lost', () => {
    let relay: Relay;
    let url: string;
    beforeAll(async () => {
      ({ relay, url } = await relayFor(TEST_REDIS_URL, 6379));
    });
    afterAll(() => relay.close());

    it('answers "not known" for every address while it cannot hear, then learns what it missed', async () => {
      const name = newName();
      const other = await instance(name);
      const cut = await instance(name, 600, await openRedis({ url, keyPrefix: fresh.keyPrefix, commandTimeoutMs: 500 }));
      expect(cut.clean('ip-1')).toBe(true);

      await relay.cut();
      await until(() => !cut.clean('ip-1'));
      // A failure counted elsewhere while this instance could not hear it.
      await other.failed('ip-1');
      expect(cut.clean('ip-2')).toBe(false);

      await relay.restore();
      await until(() => cut.clean('ip-2'), 10_000);
      expect(cut.clean('ip-1')).toBe(false);
    });

    it('syncs again when its read of the set fails as it reconnects (its two connections come back one at a time)', async () => {
      const name = newName();
      const other = await instance(name);
      const redis = await openRedis({ url, keyPrefix: fresh.keyPrefix, commandTimeoutMs: 500 });
      // The watch listens on a connection of its own and reads the set through the service's client. When
      // the listening one is back first, the read fails at once, as ioredis fails a command on a connection
      // that is not back yet (no offline queue): here the next read fails that way, whichever comes back first.
      let failNextRead = false;
      const client = new Proxy(redis, {
        get(target, key) {
          if (key === 'signinFailing' && failNextRead) {
            failNextRead = false;
            return () => Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false"));
          }
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const cut = await instance(name, 600, client);
      expect(cut.clean('ip-1')).toBe(true);

      failNextRead = true;
      await relay.cut();
      await until(() => !cut.clean('ip-1'));
      await other.failed('ip-1');
      await relay.restore();

      await until(() => cut.clean('ip-2'), 10_000);
      expect(failNextRead).toBe(false); // the failed read did happen
      expect(cut.clean('ip-1')).toBe(false);
    });

    it('does not hold a start on a Redis that accepts connections but does not answer', async () => {
      const name = newName();
      // A long command timeout: the start must not wait for it.
      const redis = await openRedis({ url, keyPrefix: fresh.keyPrefix, commandTimeoutMs: 20_000 });
      relay.stall();
      try {
        const started = Date.now();
        const stalled = await instance(name, 600, redis);
        expect(Date.now() - started).toBeLessThan(5000);
        expect(stalled.clean('ip-1')).toBe(false); // not listening: every address is read
      } finally {
        await relay.restore();
      }
    });
  });
});

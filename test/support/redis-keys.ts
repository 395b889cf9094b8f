// Keys under a prefix, listed and deleted: how the tests clean their own prefix (databases.ts) and how a
// benchmark run empties the one of the runs before it (bench/storage.ts). The clients given here have no
// ioredis `keyPrefix`, so SCAN, which ioredis never prefixes, sees the names that DEL is given.
import type { Redis } from 'ioredis';

/** Every key whose name starts with `prefix` (which must hold no glob character). */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    found.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Deletes every key whose name starts with `prefix`. */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<void> {
  const found = await keysUnder(redis, prefix);
  for (let i = 0; i < found.length; i += 500) await redis.del(...found.slice(i, i + 500));
}

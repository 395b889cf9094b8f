// A Redis outage must fail requests fast, never crash the process, and heal by itself.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { closeRedis, openRedis } from '../../adapters/redis/connect.ts';
import { TEST_REDIS_URL } from '../support/databases.ts';

/** A TCP relay in front of the test Redis that the test can cut and restore, on a fixed port. */
async function relay(port = 0): Promise<{ port: number; cut(): Promise<void> }> {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay has no TCP address');
  return {
    port: address.port,
    async cut() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('openRedis', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('rejects at startup with a clear message when Redis does not answer', async () => {
    const dead = await relay();
    await dead.cut(); // a port on which nothing listens any more
    const started = Date.now();
    await expect(openRedis({ url: `redis://127.0.0.1:${dead.port}`, keyPrefix: 'x:', commandTimeoutMs: 500 })).rejects.toThrow(
      /Redis is not reachable at redis:\/\/127\.0\.0\.1:\d+/,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('fails commands fast during an outage, without crashing, and reconnects afterwards', async () => {
    let link = await relay();
    const errors: Error[] = [];
    const redis = await openRedis(
      { url: `redis://127.0.0.1:${link.port}`, keyPrefix: 'x:', commandTimeoutMs: 500 },
      { onError: (error) => errors.push(error) },
    );
    cleanups.push(() => closeRedis(redis));
    expect(await redis.ping()).toBe('PONG');

    await link.cut();
    await sleep(100);
    const started = Date.now();
    await expect(redis.ping()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000); // no offline queue: no waiting for a reconnect

    link = await relay(link.port);
    cleanups.push(() => link.cut());
    await expect.poll(() => redis.status, { timeout: 5000 }).toBe('ready');
    expect(await redis.ping()).toBe('PONG');
  });
});

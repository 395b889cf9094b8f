// Storage errors are counted by the backend that failed: with Redis cut (a relay between the service
// and Redis, closed), the protocol requests that needed it answer 503 and the Redis counter moves.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, TEST_REDIS_URL, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { freePort, postgresStorage, sharedConfig, startInstance, teardown, type Instance } from '../storage/helpers/instance.ts';
import { prepare, waitUntilReady } from '../storage/helpers/outage.ts';
import { relayFor, type Relay } from '../storage/helpers/relay.ts';
import { sample, scrape } from './scrape.ts';

const token = randomBytes(32).toString('base64url');
let pg: FreshPostgres;
let redis: FreshRedis;
let relay: Relay;
let instance: Instance;
beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
  const through = await relayFor(TEST_REDIS_URL, 6379);
  relay = through.relay;
  const port = await freePort();
  const storage = postgresStorage(pg.url, { ...redis.config, url: through.url }, 1000);
  instance = await startInstance(sharedConfig(`http://127.0.0.1:${port}`, storage, { metrics: { bearerToken: token } }), port);
});
afterAll(() =>
  teardown(
    () => instance?.stop(),
    () => relay?.close(),
    () => redis?.cleanup(),
    () => pg?.drop(),
  ),
);

describe('storage errors', () => {
  it('are counted under the backend that was unreachable', async () => {
    const material = await prepare(instance);
    const before = (await scrape(`${instance.url}/metrics`, token)).text;
    await relay.cut();
    const info = await fetch(`${instance.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${material.accessToken}` } });
    expect(info.status).toBe(503);
    await relay.restore();
    await waitUntilReady(instance.url);

    const after = (await scrape(`${instance.url}/metrics`, token)).text;
    const delta = (backend: string) =>
      sample(after, 'signin_storage_errors_total', { backend }) - sample(before, 'signin_storage_errors_total', { backend });
    expect(delta('redis')).toBeGreaterThanOrEqual(1);
    expect(delta('postgres')).toBe(0);
  });
});

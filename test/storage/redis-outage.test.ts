// Redis cut (a relay between the service and Redis, closed): token, userinfo, revoke and the login page
// fail closed within the configured command timeout with 503s, the process stays up, /readyz turns
// 503 while /healthz stays 200, and everything works again once the relay is back, without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, TEST_REDIS_URL, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { freePort, postgresStorage, sharedConfig, startInstance, teardown, type Instance } from './helpers/instance.ts';
import { expectFailedClosed, expectRecovered, prepare, probe, waitUntilReady } from './helpers/outage.ts';
import { relayFor, type Relay } from './helpers/relay.ts';

const TIMEOUT_MS = 1000;
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
  const config = sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(pg.url, { ...redis.config, url: through.url }, TIMEOUT_MS));
  instance = await startInstance(config, port);
});
afterAll(() =>
  teardown(
    () => instance?.stop(),
    () => relay?.close(),
    () => redis?.cleanup(),
    () => pg?.drop(),
  ),
);

describe('a Redis outage', () => {
  it('fails closed with 503 within the timeout, and recovers by itself', async () => {
    const material = await prepare(instance);
    await relay.cut();

    const probes = await probe(instance.url, material);
    console.log('Redis cut:', probes.map((p) => `${p.name} ${p.status} in ${p.ms} ms`).join('; '));
    expectFailedClosed(probes, 3 * TIMEOUT_MS);
    expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${instance.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'unavailable' }]);

    await relay.restore();
    const recoveredMs = await waitUntilReady(instance.url);
    console.log(`Redis back: /readyz 200 after ${recoveredMs} ms`);
    await expectRecovered(instance.url, material);
  });

  it('fails closed within the configured timeouts when Redis stops answering, and recovers by itself', async () => {
    const material = await prepare(instance);
    relay.stall();

    const probes = await probe(instance.url, material);
    console.log('Redis stalled:', probes.map((p) => `${p.name} ${p.status} in ${p.ms} ms`).join('; '));
    expectFailedClosed(probes, 4 * TIMEOUT_MS);
    expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${instance.url}/readyz`)).status).toBe(503);

    await relay.restore();
    const recoveredMs = await waitUntilReady(instance.url);
    console.log(`Redis answering again: /readyz 200 after ${recoveredMs} ms`);
    await expectRecovered(instance.url, material);
  });
});

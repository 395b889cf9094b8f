// Postgres cut (a relay between the service and Postgres, closed): token, userinfo, revoke and the login
// page fail closed within the pool's timeouts with 503s, the process stays up, /readyz turns 503 while
// /healthz stays 200, and everything works again once the relay is back, without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { freePort, postgresStorage, sharedConfig, startInstance, teardown, type Instance } from './helpers/instance.ts';
import { expectFailedClosed, expectRecovered, prepare, probe, waitUntilReady } from './helpers/outage.ts';
import { relayFor, type Relay } from './helpers/relay.ts';

const TIMEOUT_MS = 1000;
let pg: FreshPostgres;
let relay: Relay;
let instance: Instance;
beforeAll(async () => {
  pg = await freshPostgres();
  const through = await relayFor(pg.url, 5432);
  relay = through.relay;
  const port = await freePort();
  // Everything in Postgres (no Redis): the login page itself then depends on it.
  instance = await startInstance(sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(through.url, undefined, TIMEOUT_MS)), port);
});
afterAll(() =>
  teardown(
    () => instance?.stop(),
    () => relay?.close(),
    () => pg?.drop(),
  ),
);

describe('a Postgres outage', () => {
  it('fails closed with 503 within the timeout, and recovers by itself', async () => {
    const material = await prepare(instance);
    await relay.cut();

    const probes = await probe(instance.url, material);
    console.log('Postgres cut:', probes.map((p) => `${p.name} ${p.status} in ${p.ms} ms`).join('; '));
    expectFailedClosed(probes, 3 * TIMEOUT_MS);
    expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${instance.url}/readyz`)).status).toBe(503);

    await relay.restore();
    const recoveredMs = await waitUntilReady(instance.url);
    console.log(`Postgres back: /readyz 200 after ${recoveredMs} ms`);
    await expectRecovered(instance.url, material);
  });

  it('fails closed within the configured timeouts when Postgres stops answering, and recovers by itself', async () => {
    const material = await prepare(instance);
    relay.stall();

    const probes = await probe(instance.url, material);
    console.log('Postgres stalled:', probes.map((p) => `${p.name} ${p.status} in ${p.ms} ms`).join('; '));
    expectFailedClosed(probes, 4 * TIMEOUT_MS);
    expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${instance.url}/readyz`)).status).toBe(503);

    await relay.restore();
    const recoveredMs = await waitUntilReady(instance.url);
    console.log(`Postgres answering again: /readyz 200 after ${recoveredMs} ms`);
    await expectRecovered(instance.url, material);
  });
});

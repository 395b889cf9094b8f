// Every storage failure on every path is a 503, never a 500: under a little load (sign-ins through the
// login form, code exchanges, refreshes, userinfo), Redis and then Postgres are cut for a second, three
// times each, and every answer is counted. Refresh chains survive: a refresh that failed is retried
// with the same token and is never taken for a reuse.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage } from '../support/browser.ts';
import { freshPostgres, freshRedis, TEST_REDIS_URL, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { signedInApp, tally, type SignedInApp } from '../refresh/support.ts';
import {
  createClient,
  createUser,
  freePort,
  postgresStorage,
  sharedConfig,
  startInstance,
  teardown,
  type Instance,
} from './helpers/instance.ts';
import { waitUntilReady } from './helpers/outage.ts';
import { relayFor, type Relay } from './helpers/relay.ts';

const CYCLES = 3;
const OUTAGE_MS = 1000;

let db: FreshPostgres;
let redis: FreshRedis;
const relays: Record<'postgres' | 'redis', Relay> = {} as Record<'postgres' | 'redis', Relay>;
let instance: Instance;
beforeAll(async () => {
  db = await freshPostgres();
  redis = await freshRedis();
  const pgThrough = await relayFor(db.url, 5432);
  const redisThrough = await relayFor(TEST_REDIS_URL, 6379);
  relays.postgres = pgThrough.relay;
  relays.redis = redisThrough.relay;
  const port = await freePort();
  const many = { points: 10_000, windowSeconds: 60 };
  const config = sharedConfig(
    `http://127.0.0.1:${port}`,
    postgresStorage(pgThrough.url, { ...redis.config, url: redisThrough.url }, 1000),
    {
      rateLimit: { loginPerAccount: many, loginPerIp: many },
    },
  );
  instance = await startInstance(config, port);
});
afterAll(() =>
  teardown(
    () => instance?.stop(),
    () => relays.postgres?.close(),
    () => relays.redis?.close(),
    () => redis?.cleanup(),
    () => db?.drop(),
  ),
);

const statuses: Array<{ what: string; status: number }> = [];
const record = (what: string, status: number) => statuses.push({ what, status });

/** Refreshes one chain until told to stop; a failed refresh is retried with the same token. */
async function refreshing(app: SignedInApp, first: string, running: () => boolean): Promise<void> {
  let token = first;
  while (running()) {
    const res = await app.refresh(token).catch(() => undefined);
    if (!res) continue;
    record(res.status === 400 ? `refresh ${String(res.json.error)}` : 'refresh', res.status);
    if (res.status === 200) token = String(res.json.refresh_token);
    else await sleep(50);
  }
}

/** Signs in through the pages, again and again, in a new browser each time, and redeems the code. */
async function signingIn(app: SignedInApp, running: () => boolean): Promise<void> {
  while (running()) {
    const browser = new Browser(instance.url);
    const start = await app.rp.start();
    let step = await browser.open(start.url).catch(() => undefined);
    for (let i = 0; i < 5 && step && isPage(step) && step.status === 200; i += 1) {
      record('sign-in page', step.status);
      if (/name="password"/.test(step.html))
        step = await browser.submit(step, /\/login$/, { email: app.user.email, password: app.user.password });
      else if (/\/consent"/.test(step.html)) step = await browser.submit(step, /\/consent$/, { scope: ['openid', 'email', 'profile'] });
      else break;
    }
    if (step && isPage(step) && step.status !== 200) record('sign-in page', step.status);
    if (step instanceof URL) record('code exchange', (await app.exchange({ callback: step, start })).status);
    else await sleep(50);
  }
}

async function callingUserinfo(app: SignedInApp, token: string, running: () => boolean): Promise<void> {
  while (running()) {
    record('userinfo', (await app.userinfo(token)).status);
    await sleep(20);
  }
}

describe('repeated one-second outages under load', () => {
  it('answer 503, never 500, and lose no refresh chain', { timeout: 120_000 }, async () => {
    const make = () =>
      signedInApp({
        url: instance.url,
        createUser: () => createUser(instance.service),
        createClient: () => createClient(instance.service),
      });
    const apps = await Promise.all([make(), make(), make(), make()]);
    const tokens = await Promise.all(apps.map((app) => app.tokens())); // while the stores are up
    let running = true;
    const load = Promise.all([
      refreshing(apps[0], tokens[0].refresh_token, () => running),
      refreshing(apps[1], tokens[1].refresh_token, () => running),
      signingIn(apps[2], () => running),
      callingUserinfo(apps[3], tokens[3].access_token, () => running),
    ]);

    for (const store of ['redis', 'postgres'] as const) {
      for (let cycle = 0; cycle < CYCLES; cycle += 1) {
        await relays[store].cut();
        await sleep(OUTAGE_MS);
        await relays[store].restore();
        await sleep(OUTAGE_MS);
      }
    }
    await waitUntilReady(instance.url);
    await sleep(500); // the load goes on a moment on healthy stores
    running = false;
    await load;

    const byKind = tally(statuses.map((s) => `${s.what} ${s.status}`));
    console.log(`${CYCLES} one-second outages of Redis, then of Postgres, under load:`, byKind);
    expect(
      statuses.filter((s) => s.status >= 500 && s.status !== 503),
      JSON.stringify(byKind),
    ).toEqual([]);
    expect(statuses.filter((s) => s.status === 503).length).toBeGreaterThan(0);
    // The refresh chains went on: no failed refresh was taken for a reuse.
    expect(statuses.filter((s) => s.what.startsWith('refresh invalid'))).toEqual([]);
    expect(statuses.filter((s) => s.what === 'refresh' && s.status === 200).length).toBeGreaterThan(10);
  });
});

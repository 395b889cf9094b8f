// A refresh or a code exchange either happens or does not: when a store fails half-way (after the
// successor refresh token was stored, before the access token could be; or when the redemption itself
// cannot be committed), the answer is a 503, nothing is consumed, and the application's retry works,
// even long after the reuse grace. A failed refresh never counts as a reuse.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshPostgres, freshRedis, TEST_REDIS_URL, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { signedInApp, type SignedInApp } from '../refresh/support.ts';
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
import { lockWrites } from './helpers/table-lock.ts';

const TIMEOUT_MS = 1000;
let db: FreshPostgres;
let redis: FreshRedis;
let relay: Relay;
let instance: Instance;
beforeAll(async () => {
  db = await freshPostgres();
  redis = await freshRedis();
  const through = await relayFor(TEST_REDIS_URL, 6379);
  relay = through.relay;
  const port = await freePort();
  const config = sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(db.url, { ...redis.config, url: through.url }, TIMEOUT_MS));
  instance = await startInstance(config, port);
});
afterAll(() =>
  teardown(
    () => instance?.stop(),
    () => relay?.close(),
    () => redis?.cleanup(),
    () => db?.drop(),
  ),
);
afterEach(() => {
  vi.useRealTimers();
});

const app = () =>
  signedInApp({ url: instance.url, createUser: () => createUser(instance.service), createClient: () => createClient(instance.service) });

/** The refresh chain and the grant are intact: the new tokens work, and the consent is still there. */
async function expectIntact(a: SignedInApp, answer: { status: number; json: Record<string, unknown> }): Promise<void> {
  expect(answer.status).toBe(200);
  expect((await a.userinfo(String(answer.json.access_token))).status).toBe(200);
  expect((await a.refresh(String(answer.json.refresh_token))).status).toBe(200);
  expect(await instance.service.context.consents.latest(a.user.id, a.client.clientId)).toBeDefined();
}

describe('a request cut by an outage is retried', () => {
  it('a refresh retried after a 40 s Redis outage succeeds, and the grant is intact', async () => {
    const a = await app();
    const { refresh_token: token } = await a.tokens();
    await relay.cut();
    const during = await a.refresh(token);
    expect([during.status, during.json.error]).toEqual([503, 'temporarily_unavailable']);

    // 40 s later, well past the 30 s reuse grace, Redis is back and the application retries.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 40_000);
    await relay.restore();
    await waitUntilReady(instance.url);
    await expectIntact(a, await a.refresh(token));
  });

  it('a code exchange that failed with 503 works when retried within the code’s lifetime', async () => {
    const a = await app();
    const flow = await a.code();
    const release = await lockWrites(db.url, 'refresh_families'); // the new family cannot be stored
    let during;
    try {
      during = await a.exchange(flow);
    } finally {
      await release();
    }
    expect([during.status, during.json.error]).toEqual([503, 'temporarily_unavailable']);
    await expectIntact(a, await a.exchange(flow));
  });

  it('a refresh whose rotation could not be committed (503) works when retried', async () => {
    const a = await app();
    const { refresh_token: token } = await a.tokens();
    const release = await lockWrites(db.url, 'refresh_families'); // every token is stored, the commit is not
    let during;
    try {
      during = await a.refresh(token);
    } finally {
      await release();
    }
    expect([during.status, during.json.error]).toEqual([503, 'temporarily_unavailable']);
    await expectIntact(a, await a.refresh(token));
  });
});

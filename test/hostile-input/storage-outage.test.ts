// Storage outages on the pages: with Redis (then Postgres) cut, every page form answers the localized
// 503 page with Retry-After, whichever store failed, never a 500. One line per page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, TEST_REDIS_URL, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { relayFor, type Relay } from '../storage/helpers/relay.ts';
import { postgresStorage, teardown } from '../storage/helpers/instance.ts';
import { prepareFixture, type Agent, type Fixture } from './fixture.ts';

const PAGES: ReadonlyArray<{
  path: (fx: Fixture) => string;
  agent: (fx: Fixture) => Agent;
  fields: (fx: Fixture) => Record<string, string>;
}> = [
  {
    path: () => '/account/login',
    agent: (fx) => fx.visitor.agent,
    fields: (fx) => ({ csrf: fx.visitor.csrf, email: 'nobody@example.org', password: 'not the password' }),
  },
  {
    path: () => '/password/forgot',
    agent: (fx) => fx.visitor.agent,
    fields: (fx) => ({ csrf: fx.visitor.csrf, email: 'nobody@example.org' }),
  },
  {
    path: (fx) => `/interaction/${fx.interaction.uid}/login`,
    agent: (fx) => fx.interaction.agent,
    fields: () => ({ email: 'nobody@example.org', password: 'not the password' }),
  },
];

let pg: FreshPostgres;
let redis: FreshRedis;
let redisRelay: Relay;
let pgRelay: Relay;
let svc: TestService;
let fx: Fixture;
beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
  const redisThrough = await relayFor(TEST_REDIS_URL, 6379);
  redisRelay = redisThrough.relay;
  const pgThrough = await relayFor(pg.url, 5432);
  pgRelay = pgThrough.relay;
  svc = await startTestService({ storage: postgresStorage(pgThrough.url, { ...redis.config, url: redisThrough.url }, 1000) });
  fx = await prepareFixture(svc);
});
afterAll(() =>
  teardown(
    () => svc?.stop(),
    () => redisRelay?.close(),
    () => pgRelay?.close(),
    () => redis?.cleanup(),
    () => pg?.drop(),
  ),
);

async function expectUnavailablePages(store: string) {
  for (const page of PAGES) {
    const res = await page.agent(fx).post(page.path(fx)).type('form').set('Accept-Language', 'en').send(page.fields(fx)).redirects(0);
    const label = `${store} cut: POST ${page.path(fx)}`;
    expect(res.status, label).toBe(503);
    expect(res.headers['retry-after'], label).toBeTruthy();
    expect(res.text, label).toContain('<html lang="en">');
  }
}

describe('storage outages on the pages', () => {
  it('answer the localized 503 page when Redis is cut', async () => {
    await redisRelay.cut();
    try {
      await expectUnavailablePages('Redis');
    } finally {
      await redisRelay.restore();
    }
  });

  it('answer the localized 503 page when Postgres is cut', async () => {
    await pgRelay.cut();
    try {
      await expectUnavailablePages('Postgres');
    } finally {
      await pgRelay.restore();
    }
  });
});

// A code redeemed twice is the same event whether the two redemptions come one after the other or at the
// same instant: exactly one answer carries tokens, and those tokens are revoked by the second redemption.
// 100 runs of 20 concurrent redemptions on Postgres + Redis (codes in Redis, refresh tokens in Postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { postgresStorage, teardown } from '../storage/helpers/instance.ts';
import { signedInApp, tally } from './support.ts';

const RUNS = 100;
const CONCURRENT = 20;

let pg: FreshPostgres;
let redis: FreshRedis;
let svc: TestService;
beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
  svc = await startTestService({ storage: postgresStorage(pg.url, redis.config, 3000) });
});
afterAll(() =>
  teardown(
    () => svc?.stop(),
    () => redis?.cleanup(),
    () => pg?.drop(),
  ),
);

describe('a code redeemed concurrently on Postgres + Redis', () => {
  it(`answers one 200 whose tokens are then revoked, ${RUNS} runs of ${CONCURRENT}`, { timeout: 300_000 }, async () => {
    const app = await signedInApp(svc);
    const statuses: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const flow = await app.code();
      const results = await Promise.all(Array.from({ length: CONCURRENT }, () => app.exchange(flow)));
      statuses.push(...results.map((r) => r.status));
      const winners = results.filter((r) => r.status === 200);
      expect(winners, `run ${run}`).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== 200)) expect([loser.status, loser.json.error]).toEqual([400, 'invalid_grant']);
      // The second redemption revoked what the first issued.
      const [winner] = winners;
      expect((await app.userinfo(String(winner.json.access_token))).status, `run ${run}: access token`).toBe(401);
      expect((await app.refresh(String(winner.json.refresh_token))).json.error, `run ${run}: refresh token`).toBe('invalid_grant');
    }
    console.log(`${RUNS} runs of ${CONCURRENT} concurrent redemptions:`, tally(statuses));
  });

  it('a sequential second redemption revokes the same way', async () => {
    const app = await signedInApp(svc);
    const flow = await app.code();
    const first = await app.exchange(flow);
    expect(first.status).toBe(200);
    expect((await app.exchange(flow)).json.error).toBe('invalid_grant');
    expect((await app.userinfo(String(first.json.access_token))).status).toBe(401);
    expect((await app.refresh(String(first.json.refresh_token))).json.error).toBe('invalid_grant');
  });
});

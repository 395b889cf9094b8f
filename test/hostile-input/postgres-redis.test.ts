// The hostile-input suite on Postgres and Redis.
import { afterAll, beforeAll } from 'vitest';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { postgresStorage, teardown } from '../storage/helpers/instance.ts';
import { prepareFixture, type Fixture } from './fixture.ts';
import { hostileInputSuite } from './suite.ts';

let pg: FreshPostgres;
let redis: FreshRedis;
let svc: TestService;
let fx: Fixture;
beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
  svc = await startTestService({ storage: postgresStorage(pg.url, redis.config) });
  fx = await prepareFixture(svc);
});
afterAll(() =>
  teardown(
    () => svc.stop(),
    () => redis.cleanup(),
    () => pg.drop(),
  ),
);

hostileInputSuite('Postgres and Redis', () => fx);

// Single use under concurrency, through the real endpoints: of 20 simultaneous redemptions of one
// code exactly one succeeds (and what it issued is revoked), and 10 simultaneous refreshes never leave
// two independently valid successors. On each backend a code can live in: PGlite, Postgres, Redis and a
// three-node Redis Cluster (each with Postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { authorize, postForm, signIn, userinfo } from '../support/flow.ts';
import { postgresStorage, teardown } from './helpers/instance.ts';
import { startLocalCluster, type LocalCluster } from './helpers/redis-cluster.ts';

let pg: FreshPostgres;
let redis: FreshRedis;
let cluster: LocalCluster;
const services: Record<string, TestService> = {};
beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
  services.pglite = await startTestService();
  services.postgres = await startTestService({ storage: postgresStorage(pg.url, undefined, 3000) });
  services['postgres+redis'] = await startTestService({ storage: postgresStorage(pg.url, redis.config, 3000) });
  cluster = await startLocalCluster(7111);
  services['postgres+redis-cluster'] = await startTestService({ storage: postgresStorage(pg.url, cluster.config('signin:'), 3000) });
}, 60_000);
afterAll(() =>
  teardown(
    ...Object.values(services).map((s) => () => s.stop()),
    () => redis?.cleanup(),
    () => cluster?.stop(),
    () => pg?.drop(),
  ),
);

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.each(['pglite', 'postgres', 'postgres+redis', 'postgres+redis-cluster'])('single use on %s', (backend) => {
  it('redeems one authorization code exactly once out of 20 concurrent requests', async () => {
    const svc = services[backend];
    const client = await svc.createClient();
    const { callback, start } = await authorize(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    const code = callback.searchParams.get('code')!;
    const fields = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: start.verifier,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => postForm(`${svc.url}/oauth/token`, fields)));
    console.log(`[${backend}] 20 concurrent redemptions of one code:`, tally(results.map((r) => r.status)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => r.status !== 200);
    expect(losers).toHaveLength(19);
    for (const loser of losers) expect([loser.status, loser.json.error]).toEqual([400, 'invalid_grant']);
    // A second redemption, concurrent or not, revokes what the first issued.
    expect((await userinfo(svc.url, String(winners[0].json.access_token))).status).toBe(401);
  });

  it('never yields two independently valid successors from 10 concurrent refreshes', async () => {
    const svc = services[backend];
    const client = await svc.createClient();
    const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    const creds = { client_id: client.clientId, client_secret: client.clientSecret };
    const refresh = (token: string) => postForm(`${svc.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: token, ...creds });

    const race = await Promise.all(Array.from({ length: 10 }, () => refresh(tokens.refresh_token!)));
    for (const r of race) expect(r.status === 200 || r.json.error === 'invalid_grant').toBe(true);
    const successors = race.filter((r) => r.status === 200).map((r) => String(r.json.refresh_token));
    expect(successors.length).toBeGreaterThanOrEqual(1);

    // Each successor used once, in turn: the first that works ends every sibling.
    const used = [];
    for (const successor of successors) used.push((await refresh(successor)).status);
    console.log(`[${backend}] 10 concurrent refreshes: ${successors.length} successors issued; then used in turn:`, tally(used));
    expect(used.filter((s) => s === 200)).toHaveLength(1);
  });
});

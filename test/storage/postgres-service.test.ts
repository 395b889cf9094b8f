// The service on Postgres and Redis runs the whole flow, and refuses to start on a schema it does not
// know, saying what to run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInService } from '../../src/service.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { postForm, signIn, userinfo } from '../support/flow.ts';
import { postgresStorage, sharedConfig, teardown } from './helpers/instance.ts';

let pg: FreshPostgres;
let redis: FreshRedis;
let svc: TestService;
beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
  svc = await startTestService({ storage: postgresStorage(pg.url, redis.config) });
});
afterAll(() =>
  teardown(
    () => svc.stop(),
    () => redis.cleanup(),
    () => pg.drop(),
  ),
);

describe('the service on Postgres and Redis', () => {
  it('runs the full flow: sign-in, consent, code, userinfo, refresh, revoke', async () => {
    const client = await svc.createClient();
    const user = await svc.createUser();
    const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), user);
    expect(tokens.access_token).toBeTruthy();
    expect((await userinfo(svc.url, tokens.access_token)).json.email).toBe(user.email);

    // The hot models went to Redis, the durable ones to Postgres.
    const keys = Object.keys(await redis.dump());
    for (const model of ['Session', 'AuthorizationCode', 'AccessToken'])
      expect(
        keys.some((k) => k.startsWith(`${redis.keyPrefix}${model}:`)),
        model,
      ).toBe(true);
    const sql = (await pg.db.query<{ model: string }>('SELECT DISTINCT model FROM oidc_models')).rows.map((r) => r.model);
    expect(sql).toContain('Grant');
    for (const model of ['Session', 'AuthorizationCode', 'AccessToken', 'Interaction']) expect(sql).not.toContain(model);
    // The refresh token, in its family's row.
    const live = await pg.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_families f, jsonb_object_keys(f.live) AS k');
    expect(live.rows[0].n).toBe(1);

    const creds = { client_id: client.clientId, client_secret: client.clientSecret };
    const refreshed = await postForm(`${svc.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      ...creds,
    });
    expect(refreshed.status).toBe(200);
    const revoked = await postForm(`${svc.url}/oauth/token/revoke`, { token: String(refreshed.json.refresh_token), ...creds });
    expect(revoked.status).toBe(200);
    expect((await userinfo(svc.url, String(refreshed.json.access_token))).status).toBe(401);
  });

  it('answers /readyz with both backends reachable', async () => {
    const res = await fetch(`${svc.url}/readyz`);
    expect(res.status).toBe(200);
  });
});

describe('the schema check at start', () => {
  it('refuses an unmigrated database and says what to run', async () => {
    const empty = await freshPostgres({ migrated: false });
    try {
      const config = sharedConfig('http://127.0.0.1:1', postgresStorage(empty.url));
      await expect(createSignInService(config)).rejects.toThrow(/not up to date .*run: signin migrate --config <file>/);
    } finally {
      await empty.drop();
    }
  });

  it('refuses a schema newer than this service knows', async () => {
    const ahead = await freshPostgres();
    try {
      await ahead.db.query(`INSERT INTO schema_migrations (version, name) VALUES (999, 'from_the_future')`);
      const config = sharedConfig('http://127.0.0.1:1', postgresStorage(ahead.url));
      await expect(createSignInService(config)).rejects.toThrow(/version 999.*newer than this service knows.*upgrade the service/);
    } finally {
      await ahead.drop();
    }
  });
});

// Nothing usable at rest: after a complete flow, a dump of every SQL table and of every Redis key holds
// no code, token, client secret or password, and the hashes it does hold open nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { authorize, postForm, userinfo } from '../support/flow.ts';
import { postgresStorage, teardown } from './helpers/instance.ts';

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
    () => svc.stop(),
    () => redis.cleanup(),
    () => pg.drop(),
  ),
);

/** Every row of every table of the public schema, as text. */
async function dumpSql(): Promise<string> {
  const tables = await pg.db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  const parts: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await pg.db.query(`SELECT * FROM "${name}"`);
    parts.push(`${name}: ${JSON.stringify(rows.rows)}`);
  }
  return parts.join('\n');
}

describe('a dump of Postgres and Redis after a complete flow', () => {
  it('contains no code, token, client secret or password, and its hashes open nothing', async () => {
    const client = await svc.createClient();
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, client);
    const { callback, start } = await authorize(svc.url, rp, user);
    const code = callback.searchParams.get('code')!;
    const tokens = await rp.redeem(callback, start);
    const creds = { client_id: client.clientId, client_secret: client.clientSecret };
    const refreshed = await postForm(`${svc.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      ...creds,
    });
    expect(refreshed.status).toBe(200);

    const secrets: Record<string, string> = {
      'authorization code': code,
      'access token': tokens.access_token,
      'refresh token (old)': tokens.refresh_token!,
      'access token (after refresh)': String(refreshed.json.access_token),
      'refresh token (new)': String(refreshed.json.refresh_token),
      'client secret': client.clientSecret,
      password: user.password,
    };
    const sql = await dumpSql();
    const keyspace = await redis.dump();
    const redisText = Object.entries(keyspace)
      .map(([k, v]) => `${k} ${v}`)
      .join('\n');
    expect(sql).toContain('oidc_models');
    expect(Object.keys(keyspace).length).toBeGreaterThan(0);
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThan(10);
      expect(sql.includes(value), `${what} in the SQL dump`).toBe(false);
      expect(redisText.includes(value), `${what} in the Redis dump`).toBe(false);
    }

    // The ids that are there are hashes: presented as tokens, none of them opens anything.
    const sqlHashes = (await pg.db.query<{ id_hash: string }>('SELECT id_hash FROM oidc_models')).rows.map((r) => r.id_hash);
    const redisHashes = Object.keys(keyspace)
      .map((k) => k.slice(redis.keyPrefix.length).split(':'))
      .filter((parts) => parts.length === 2 && parts[0] !== 'grant')
      .map((parts) => parts[1]);
    const hashes = [...new Set([...sqlHashes, ...redisHashes])];
    console.log(
      `at rest: ${sqlHashes.length} SQL id hashes, ${redisHashes.length} Redis id hashes, ${Object.keys(keyspace).length} Redis keys`,
    );
    expect(hashes.length).toBeGreaterThanOrEqual(4);
    for (const hash of hashes) {
      expect((await userinfo(svc.url, hash)).status, `userinfo with ${hash}`).toBe(401);
      const asRefresh = await postForm(`${svc.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: hash, ...creds });
      expect(asRefresh.json.error).toBe('invalid_grant');
    }
    // The real token still works: the 401s above are about the hashes, not a broken service.
    expect((await userinfo(svc.url, String(refreshed.json.access_token))).status).toBe(200);
  });
});

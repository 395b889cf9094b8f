// Refresh-token families (docs/reference/endpoints.md, "Refresh tokens"): a replay of a rotated token,
// one or two generations old, revokes the whole grant at once (every refresh and access token, the
// grant, its consent), while an application refreshing in parallel within the grace keeps working. On
// both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshGrant } from '../support/flow.ts';
import type { TestService } from '../support/service.ts';
import { servicesOnEachStore } from '../storage/helpers/instance.ts';
import { signedInApp, type SignedInApp } from './support.ts';

let stores: Awaited<ReturnType<typeof servicesOnEachStore>>;
let services: Record<string, TestService>;
beforeAll(async () => {
  stores = await servicesOnEachStore({ redis: true });
  services = stores.services;
});
afterAll(() => stores?.stop());

describe.each(['pglite', 'postgres+redis'])('refresh-token reuse on %s', (backend) => {
  /** The grant is gone: no token of it works, and nothing of it is left in SQL. */
  async function expectRevoked(app: SignedInApp, refreshTokens: string[], accessTokens: string[]): Promise<void> {
    for (const token of refreshTokens) expect((await app.refresh(token)).json.error, 'refresh token').toBe('invalid_grant');
    for (const token of accessTokens) expect((await app.userinfo(token)).status, 'access token').toBe(401);
    const { db } = services[backend].service.context;
    const left = await db.query<{ families: number; consents: number }>(
      `SELECT (SELECT count(*)::int FROM refresh_families WHERE client_id = $1) AS families,
              (SELECT count(*)::int FROM consents WHERE client_id = $1) AS consents`,
      [app.client.clientId],
    );
    expect(left.rows[0]).toEqual({ families: 0, consents: 0 });
  }

  it('revokes the grant when RT1 is replayed after RT2 was used, within the grace', async () => {
    const app = await signedInApp(services[backend]);
    const first = await app.tokens();
    const second = await app.refresh(first.refresh_token); // the application rotates RT1 into RT2...
    const third = await app.refresh(String(second.json.refresh_token)); // ...and RT2 into RT3, within seconds
    expect([second.status, third.status]).toEqual([200, 200]);

    const replay = await app.refresh(first.refresh_token); // a stolen RT1
    expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant']);
    await expectRevoked(
      app,
      [String(third.json.refresh_token)],
      [first.access_token, String(second.json.access_token), String(third.json.access_token)],
    );
  });

  it('revokes the grant when a token two generations old is replayed, its row long removed', async () => {
    const app = await signedInApp(services[backend]);
    const chain = [(await app.tokens()).refresh_token];
    const access: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const next = await app.refresh(chain[chain.length - 1]);
      expect(next.status).toBe(200);
      chain.push(String(next.json.refresh_token));
      access.push(String(next.json.access_token));
    }
    const replay = await app.refresh(chain[1]); // RT2, after RT3 and RT4 were used
    expect(replay.json.error).toBe('invalid_grant');
    await expectRevoked(app, [chain[3]], access);
  });

  it('keeps an application refreshing in parallel within the grace signed in', async () => {
    const app = await signedInApp(services[backend]);
    const { refresh_token: token } = await app.tokens();
    const parallel = await Promise.all([app.refresh(token), app.refresh(token)]);
    expect(parallel.map((r) => r.status)).toEqual([200, 200]);
    // The application keeps one of the answers and goes on with it.
    const kept = String(parallel[1].json.refresh_token);
    const next = await app.refresh(kept);
    expect(next.status).toBe(200);
    expect((await app.refresh(String(next.json.refresh_token))).status).toBe(200);
    expect((await app.userinfo(String(next.json.access_token))).status).toBe(200);
  });

  it('a replay presented by another application revokes nothing', async () => {
    const app = await signedInApp(services[backend]);
    const first = await app.tokens();
    const second = await app.refresh(first.refresh_token);
    const other = await services[backend].createClient();
    expect((await refreshGrant(services[backend].url, other, first.refresh_token)).json.error).toBe('invalid_grant');
    expect((await app.refresh(String(second.json.refresh_token))).status).toBe(200);
  });
});

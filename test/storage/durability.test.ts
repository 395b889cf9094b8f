// Durability: stop the service and start it again on the same Postgres and Redis: clients, users,
// grants, refresh tokens, signing keys and remembered consents are all still valid, and the pairwise
// `sub` an application knows its user by has not changed.
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { Browser } from '../support/browser.ts';
import { authorize, postForm, signIn, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
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

let pg: FreshPostgres;
let redis: FreshRedis;
let instance: Instance | undefined;
beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
});
afterAll(() =>
  teardown(
    () => instance!.stop(),
    () => redis.cleanup(),
    () => pg.drop(),
  ),
);

const jwksOf = async (url: string) => (await (await fetch(`${url}/oauth/jwks`)).json()) as { keys: Array<{ kid: string }> };

describe('a restart on the same Postgres and Redis', () => {
  it('keeps clients, users, grants, refresh tokens, signing keys, consents and pairwise subs', async () => {
    const port = await freePort();
    const config = sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(pg.url, redis.config, 3000));
    instance = await startInstance(config, port);
    const client = await createClient(instance.service);
    const user = await createUser(instance.service);
    const browser = new Browser(instance.url);
    const before = await signIn(instance.url, await relyingParty(instance.url, client), user, { browser });
    const subBefore = before.tokens.claims()!.sub;
    const kidsBefore = (await jwksOf(instance.url)).keys.map((k) => k.kid).sort();

    await instance.stop();
    instance = await startInstance(config, port);

    // Signing keys: the same set, and the ID token issued before verifies against it.
    expect((await jwksOf(instance.url)).keys.map((k) => k.kid).sort()).toEqual(kidsBefore);
    const rp = await relyingParty(instance.url, client);
    const verified = await oidc.refreshTokenGrant(rp.config, before.tokens.refresh_token!);
    expect(verified.claims()!.sub).toBe(subBefore); // refresh token, grant and client secret still valid; ID token signed and checked

    // The access token issued before the restart (Redis) still opens userinfo, with the same sub.
    expect((await userinfo(instance.url, before.tokens.access_token)).json.sub).toBe(subBefore);

    // A new browser (no session): the user signs in with the same password, and the consent given
    // before is remembered: no consent page this time.
    const again = await authorize(instance.url, rp, user);
    expect(again.pages.some((p) => /\/consent"/.test(p.html))).toBe(false);
    const tokens = await rp.redeem(again.callback, again.start);
    expect(tokens.claims()!.sub).toBe(subBefore);

    // The browser session from before the restart still signs the user in without a password.
    const sso = await authorize(instance.url, rp, user, { browser });
    expect(sso.pages.some((p) => /name="password"/.test(p.html))).toBe(false);

    // Revocation still reaches what was stored before the restart.
    const creds = { client_id: client.clientId, client_secret: client.clientSecret };
    expect((await postForm(`${instance.url}/oauth/token/revoke`, { token: before.tokens.access_token, ...creds })).status).toBe(200);
    expect((await userinfo(instance.url, before.tokens.access_token)).status).toBe(401);
  });
});

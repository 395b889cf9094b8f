// The ID assertion endpoint over HTTP, on the embedded store and on Postgres + Redis: a code only under a
// grant the user gave, bound to the application's PKCE challenge and redeemed at /oauth/token as a code of
// the redirect flow (the same pairwise sub); every other request refused, logged, with no code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairwiseSubjects } from '../../src/policy/pairwise.ts';
import { findSessionByUid } from '../../src/provider/engine.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { giveConsent, signedInCookie } from './fedcm-cookie.ts';
import { pkcePair, startFedcmWorld, type FedcmWorld } from './fedcm-service.ts';
import { idpRequest, redeem } from './idp-request.ts';

const stores = {
  embedded: async () => ({ world: await startFedcmWorld(), cleanup: async () => {} }),
  'postgres + redis': async () => {
    const postgres: FreshPostgres = await freshPostgres();
    const redis: FreshRedis = await freshRedis();
    const world = await startFedcmWorld({ storage: { kind: 'postgres', postgres: { url: postgres.url }, redis: redis.config } });
    return { world, cleanup: async () => (await redis.cleanup(), await postgres.drop()) };
  },
};

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('FedCM ID assertion (%s)', (store) => {
  let world: FedcmWorld;
  let cleanup: () => Promise<void>;
  let cookie: string;
  beforeAll(async () => {
    ({ world, cleanup } = await stores[store]());
    cookie = await signedInCookie(world);
  }, 60_000);
  afterAll(async () => {
    await world?.stop();
    await cleanup?.();
  });

  const assertion = (
    fields: { clientId?: string; params?: Record<string, string> | string; accountId?: string },
    headers: Record<string, string> = {},
  ) =>
    idpRequest(world, '/fedcm/assertion', {
      form: {
        client_id: fields.clientId ?? world.client.clientId,
        account_id: fields.accountId ?? world.user.id,
        disclosure_text_shown: 'false',
        is_auto_selected: 'false',
        params: typeof fields.params === 'string' ? fields.params : JSON.stringify(fields.params ?? {}),
      },
      headers: { Origin: world.rpOrigin, 'Sec-Fetch-Dest': 'webidentity', Cookie: cookie, ...headers },
    });
  const pkceParams = (challenge: string, extra: Record<string, string> = {}) => ({
    scope: 'openid email',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

  it('answers the consent pop-up, not a code, while the user has not consented', async () => {
    const answer = await assertion({ params: pkceParams(pkcePair().challenge) });
    expect(answer.status).toBe(200);
    expect(answer.json.token).toBeUndefined();
    expect(String(answer.json.continue_on)).toMatch(new RegExp(`^${world.issuer}/fedcm/continue\\?id=`));
    expect(answer.headers['access-control-allow-origin']).toBe(world.rpOrigin);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
  });

  it('gives a code under a consent; it redeems once, with its verifier, by its client, to the redirect flow’s sub', async () => {
    await giveConsent(world, world.client.clientId);
    const pair = pkcePair();
    const answer = await assertion({ params: pkceParams(pair.challenge) });
    expect(answer.status, answer.text).toBe(200);
    const code = String(answer.json.token);
    expect(code.length).toBeGreaterThan(20);
    expect(answer.headers['access-control-allow-origin']).toBe(world.rpOrigin);

    // Another application, with its own secret, cannot redeem it.
    const { client: other, clientSecret } = await world.service.context.clients.create({
      name: 'Autre application',
      description: 'Une autre',
      appType: 'web',
      redirectUris: [world.client.redirectUri],
      scopes: ['openid', 'email'],
    });
    const byOther = await redeem(world, code, pair.verifier, {
      clientId: other.clientId,
      clientSecret,
      redirectUri: world.client.redirectUri,
    });
    expect(byOther.token.status).toBe(400);
    expect(byOther.token.json.error).toBe('invalid_grant');
    // Nor the right application with the wrong verifier.
    const wrongVerifier = await redeem(world, code, pkcePair().verifier);
    expect(wrongVerifier.token.status).toBe(400);
    expect(wrongVerifier.token.json.access_token).toBeUndefined();

    const { token, userinfo } = await redeem(world, code, pair.verifier);
    expect(token.status, token.text).toBe(200);
    expect(String(token.json.scope).split(' ').sort()).toEqual(['email', 'openid']);
    expect(userinfo?.json.email).toBe(world.user.email);
    expect(userinfo?.json.sub).not.toBe(world.user.id);

    // Used twice: refused (and the engine revokes what the first use issued).
    const twice = await redeem(world, code, pair.verifier);
    expect(twice.token.status).toBe(400);
    expect(twice.token.json.error).toBe('invalid_grant');

    // The redirect flow's sub for the same application (the service's pairwise rule; the Chromium test
    // compares it with a redirect flow's userinfo too).
    const redirectSub = pairwiseSubjects(world.service.context.config.secrets.pairwiseSalt)(world.client.clientId, world.user.id);
    expect(userinfo?.json.sub).toBe(redirectSub);
  });

  it('refuses a foreign origin, a missing Sec-Fetch-Dest, a plain or missing challenge, an unknown client, a stranger', async () => {
    const { challenge } = pkcePair();
    const foreign = await assertion({ params: pkceParams(challenge) }, { Origin: 'https://evil.test' });
    expect(foreign.status).toBe(400);
    expect(foreign.json.token).toBeUndefined();
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();

    const forged = await assertion({ params: pkceParams(challenge) }, { 'Sec-Fetch-Dest': 'empty' });
    expect(forged.status).toBe(400);
    expect(forged.json.token).toBeUndefined();

    const plain = await assertion({ params: { scope: 'openid', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' } });
    expect(plain.status).toBe(400);
    expect(plain.json).toEqual({ error: { code: 'invalid_request' } });

    const none = await assertion({ params: { scope: 'openid' } });
    expect(none.status).toBe(400);
    expect(none.json.token).toBeUndefined();

    const unknown = await assertion({ clientId: 'no-such-client', params: pkceParams(challenge) });
    expect(unknown.status).toBe(400);
    expect(unknown.json.token).toBeUndefined();

    const signedOut = await assertion({ params: pkceParams(challenge) }, { Cookie: '' });
    expect(signedOut.status).toBe(401);
    expect(signedOut.json.token).toBeUndefined();

    const otherAccount = await assertion({ accountId: 'someone-else', params: pkceParams(challenge) });
    expect(otherAccount.status).toBe(401);
  });

  it('lists the signed-in account with the applications it approved, only to the browser’s own request', async () => {
    // (The code presented twice above revoked that grant, as the engine does.)
    await giveConsent(world, world.client.clientId);
    const accounts = await idpRequest(world, '/fedcm/accounts', { headers: { 'Sec-Fetch-Dest': 'webidentity', Cookie: cookie } });
    expect(accounts.status).toBe(200);
    const [account] = accounts.json.accounts as Array<Record<string, unknown>>;
    expect(account).toMatchObject({ id: world.user.id, email: world.user.email, name: 'Awa', given_name: 'Awa' });
    expect(account!.approved_clients).toContain(world.client.clientId);
    expect((await idpRequest(world, '/fedcm/accounts', { headers: { Cookie: cookie } })).status).toBe(400);
    const anonymous = await idpRequest(world, '/fedcm/accounts', { headers: { 'Sec-Fetch-Dest': 'webidentity' } });
    expect(anonymous.status).toBe(401);
  });

  it('ends the grant at disconnect: the next assertion asks consent again', async () => {
    const refused = await idpRequest(world, '/fedcm/disconnect', {
      form: { client_id: world.client.clientId, account_hint: world.user.id },
      headers: { Origin: 'https://evil.test', 'Sec-Fetch-Dest': 'webidentity', Cookie: cookie },
    });
    expect(refused.status).toBe(400);
    const disconnect = await idpRequest(world, '/fedcm/disconnect', {
      form: { client_id: world.client.clientId, account_hint: world.user.email },
      headers: { Origin: world.rpOrigin, 'Sec-Fetch-Dest': 'webidentity', Cookie: cookie },
    });
    expect(disconnect.status, disconnect.text).toBe(200);
    expect(disconnect.json).toEqual({ account_id: world.user.id });
    expect(disconnect.headers['access-control-allow-origin']).toBe(world.rpOrigin);
    expect(await world.service.context.consents.latest(world.user.id, world.client.clientId)).toBeUndefined();
    const again = await assertion({ params: pkceParams(pkcePair().challenge) });
    expect(again.json.token).toBeUndefined();
    expect(again.json.continue_on).toBeDefined();
  });

  it('forgets the browser once its session ends (sign-out everywhere, a password change, a deletion), cookie or not', async () => {
    const fresh = await signedInCookie(world);
    const accounts = () => idpRequest(world, '/fedcm/accounts', { headers: { 'Sec-Fetch-Dest': 'webidentity', Cookie: fresh } });
    expect((await accounts()).status).toBe(200);
    const uid = /signin\.fedcm=([^;]+)/.exec(fresh)![1]!;
    await (await findSessionByUid(world.service.provider, uid))!.destroy();
    const after = await accounts();
    expect(after.status).toBe(401);
    expect(after.headers['set-login']).toBe('logged-out');
    expect(String(after.headers['set-cookie'])).toMatch(/signin\.fedcm=;.*samesite=none/i);
  });
});

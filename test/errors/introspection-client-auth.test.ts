// Introspection needs the caller's secret (RFC 7662 §2.1), public applications included: a mobile app or
// a single-page app that sends its client_id alone (`token_endpoint_auth_method` none, enough at the
// token and revocation endpoints) is refused `401 invalid_client` with a challenge, not told
// `{"active": false}` about a token that may well be active. With its secret it is answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, exchangeCode, postForm } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

/** An access token of `client`, from a real sign-in, redeemed without a secret when the client is public. */
async function accessTokenOf(client: TestClient, publicClient: boolean): Promise<string> {
  const user = await svc.createUser();
  const flow = await authorize(svc.url, await relyingParty(svc.url, client), user);
  const tokens = await exchangeCode(svc.url, client, flow, publicClient ? { client_secret: undefined } : {});
  expect(tokens.status).toBe(200);
  return String(tokens.json.access_token);
}

const introspect = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(`${svc.url}/oauth/token/introspect`, fields, headers);

function expectChallenge(res: Awaited<ReturnType<typeof introspect>>) {
  expect(res.status).toBe(401);
  expect(res.json.error).toBe('invalid_client');
  expect(res.json).not.toHaveProperty('active');
  expect(res.headers.get('www-authenticate')).toBe(`Basic realm="${svc.url}"`);
  expect(res.headers.get('cache-control')).toContain('no-store');
}

describe('introspection by a public client', () => {
  for (const [type, redirectUri] of [
    ['spa', 'https://spa.example.org/callback'],
    ['mobile', 'com.example.wave:/callback'],
  ] as const) {
    it(`${type}: 401 invalid_client with its client_id alone, an answer with its secret`, async () => {
      const client = await svc.createClient({ appType: type, redirectUris: [redirectUri] });
      const token = await accessTokenOf(client, true);
      expectChallenge(await introspect({ token, client_id: client.clientId }));

      const inBody = await introspect({ token, client_id: client.clientId, client_secret: client.clientSecret });
      expect(inBody.status).toBe(200);
      expect(inBody.json).toMatchObject({ active: true, client_id: client.clientId });
      const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
      expect((await introspect({ token }, { authorization: basic })).json.active).toBe(true);
    });
  }

  it('a confidential application without its secret gets the same challenge', async () => {
    const client = await svc.createClient();
    const token = await accessTokenOf(client, false);
    expectChallenge(await introspect({ token, client_id: client.clientId }));
  });

  it('revocation still takes a public client’s client_id alone', async () => {
    const client = await svc.createClient({ appType: 'spa', redirectUris: ['https://spa.example.org/callback'] });
    const token = await accessTokenOf(client, true);
    expect((await postForm(`${svc.url}/oauth/token/revoke`, { token, client_id: client.clientId })).status).toBe(200);
  });
});

// Mobile apps and single-page apps are public clients: they redeem their codes with PKCE alone
// (`token_endpoint_auth_method: none`). They still got a secret at registration, and a request that
// sends it (right) is accepted too; a wrong one is refused. Web and server applications stay
// confidential: no secret, no tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, exchangeCode, postForm, type FlowOptions } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const mobileApp = () => svc.createClient({ name: 'Appli Wave', appType: 'mobile', redirectUris: ['com.example.wave:/callback'] });
const spa = () => svc.createClient({ name: 'Tableau', appType: 'spa', redirectUris: ['https://spa.example.org/callback'] });

/** A signed-in user's code for `client` (the browser part of the flow). */
async function codeFor(client: TestClient, options: FlowOptions = {}) {
  const user = await svc.createUser();
  return authorize(svc.url, await relyingParty(svc.url, client), user, options);
}

describe('public clients at the token endpoint', () => {
  it('a mobile app exchanges its code with PKCE and no secret: 200, with a refresh token', async () => {
    const client = await mobileApp();
    const flow = await codeFor(client);
    const res = await exchangeCode(svc.url, client, flow, { client_secret: undefined });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ token_type: 'Bearer', scope: 'openid email profile' });
    expect(res.json.refresh_token).toEqual(expect.any(String));
  });

  it('a single-page app too, and its refresh tokens rotate on every use without a secret', async () => {
    const client = await spa();
    const flow = await codeFor(client);
    const first = await exchangeCode(svc.url, client, flow, { client_secret: undefined });
    expect(first.status).toBe(200);
    const refreshed = await postForm(`${svc.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: String(first.json.refresh_token),
      client_id: client.clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).toEqual(expect.any(String));
    expect(refreshed.json.refresh_token).not.toBe(first.json.refresh_token);
  });

  it('accepts the secret a public client was given, in the body or in HTTP Basic, and refuses a wrong one', async () => {
    const client = await mobileApp();
    expect((await exchangeCode(svc.url, client, await codeFor(client))).status).toBe(200);
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    const viaBasic = await exchangeCode(
      svc.url,
      client,
      await codeFor(client),
      { client_id: undefined, client_secret: undefined },
      { authorization: basic },
    );
    expect(viaBasic.status).toBe(200);
    const wrong = await exchangeCode(svc.url, client, await codeFor(client), { client_secret: `${client.clientSecret}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid_client');
  });

  it('still requires PKCE of a public client: a code without its verifier is refused', async () => {
    const client = await mobileApp();
    const res = await exchangeCode(svc.url, client, await codeFor(client), { client_secret: undefined, code_verifier: undefined });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('keeps web and server applications confidential: 401 invalid_client without the secret', async () => {
    const web = await svc.createClient({ appType: 'web' });
    const code = await exchangeCode(svc.url, web, await codeFor(web), { client_secret: undefined });
    expect(code.status).toBe(401);
    expect(code.json.error).toBe('invalid_client');
    // A server application signs no user in: its one grant is client_credentials (test/e2e/client-credentials.test.ts).
    const server = await svc.createClient({ appType: 'server', redirectUris: [], scopes: [] });
    const machine = await postForm(`${svc.url}/oauth/token`, { grant_type: 'client_credentials', client_id: server.clientId });
    expect(machine.status).toBe(401);
    expect(machine.json.error).toBe('invalid_client');
  });

  it('lets a public client revoke its tokens without a secret, but introspect only with it', async () => {
    const client = await mobileApp();
    const tokens = await exchangeCode(svc.url, client, await codeFor(client), { client_secret: undefined });
    const token = String(tokens.json.access_token);
    // Its client_id alone is no authentication for introspection (RFC 7662 §2.1): 401, not an answer.
    const anonymous = await postForm(`${svc.url}/oauth/token/introspect`, { token, client_id: client.clientId });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toBe('invalid_client');
    const authenticated = await postForm(`${svc.url}/oauth/token/introspect`, {
      token,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(authenticated.json.active).toBe(true);
    const revoked = await postForm(`${svc.url}/oauth/token/revoke`, { token, client_id: client.clientId });
    expect(revoked.status).toBe(200);
    const after = await postForm(`${svc.url}/oauth/token/introspect`, {
      token,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(after.json).toEqual({ active: false });
  });

  it('lists none among the token and revocation endpoints’ methods in discovery', async () => {
    const discovery = (await (await fetch(`${svc.url}/.well-known/openid-configuration`)).json()) as Record<string, string[]>;
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_post', 'client_secret_basic', 'none']),
    );
    expect(discovery.revocation_endpoint_auth_methods_supported).toContain('none');
    expect(discovery.introspection_endpoint_auth_methods_supported).not.toContain('none');
  });
});

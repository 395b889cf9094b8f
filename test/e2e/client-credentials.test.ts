// Server applications (type `server`): a backend that calls for itself with the client_credentials grant
// (RFC 6749 §4.4), played by openid-client. Its token names no user and carries no scope; no other type
// of application may use the grant. On the embedded store alone, and with Redis, where such tokens live.
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRedis, type FreshRedis } from '../support/databases.ts';
import { postForm, userinfo } from '../support/flow.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';

let svc: TestService;
let redis: FreshRedis | undefined;

const serverApp = () => svc.createClient({ name: 'Facturation', appType: 'server', redirectUris: [], scopes: [] });

/** openid-client configured as the application, with its secret in the body (client_secret_post). */
const machine = (client: TestClient) =>
  oidc.discovery(new URL(svc.url), client.clientId, undefined, oidc.ClientSecretPost(client.clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });

const clientCredentials = (client: TestClient, fields: Record<string, string> = {}) =>
  postForm(`${svc.url}/oauth/token`, {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...fields,
  });

describe.each(['embedded store', 'embedded store and Redis'])('server applications: client_credentials, %s', (storage) => {
  beforeAll(async () => {
    redis = storage.includes('Redis') ? await freshRedis() : undefined;
    svc = await startTestService({ storage: { kind: 'embedded', dataDir: 'memory://', redis: redis?.config } });
  });
  afterAll(async () => {
    await svc?.stop();
    await redis?.cleanup();
  });

  it('lists the grant in discovery', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/openid-configuration`)).json()) as { grant_types_supported: string[] };
    expect(doc.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
  });

  it('gives a server application an access token for itself, which names no user: introspection shows no sub, userinfo refuses it', async () => {
    const client = await serverApp();
    const config = await machine(client);
    const tokens = await oidc.clientCredentialsGrant(config);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.scope).toBeUndefined();
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();

    const introspection = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspection).toMatchObject({ active: true, client_id: client.clientId, token_type: 'Bearer' });
    expect(introspection.sub).toBeUndefined();
    expect(introspection.scope).toBeUndefined();

    const info = await userinfo(svc.url, tokens.access_token);
    expect(info.status).toBe(401);
    expect(info.json.error).toBe('invalid_token');
  });

  it('lets the server application revoke its token, and no other application introspect it', async () => {
    const client = await serverApp();
    const config = await machine(client);
    const { access_token: token } = await oidc.clientCredentialsGrant(config);
    const other = await svc.createClient();
    const stranger = await postForm(`${svc.url}/oauth/token/introspect`, {
      token,
      client_id: other.clientId,
      client_secret: other.clientSecret,
    });
    expect(stranger.json).toEqual({ active: false });

    await oidc.tokenRevocation(config, token);
    expect(await oidc.tokenIntrospection(config, token)).toEqual({ active: false });
  });

  it('takes the secret in HTTP Basic too', async () => {
    const client = await serverApp();
    const config = await oidc.discovery(new URL(svc.url), client.clientId, undefined, oidc.ClientSecretBasic(client.clientSecret), {
      execute: [oidc.allowInsecureRequests],
    });
    expect((await oidc.clientCredentialsGrant(config)).access_token).toBeTruthy();
  });

  it('refuses a wrong secret: 401 invalid_client', async () => {
    const client = await serverApp();
    const res = await clientCredentials(client, { client_secret: `${client.clientSecret}x` });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
  });

  it.each(['openid', 'email', 'profile', 'openid email profile', 'api:read'])(
    'refuses the scope %j: a server token carries none (invalid_scope)',
    async (scope) => {
      const res = await clientCredentials(await serverApp(), { scope });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_scope');
    },
  );

  it.each([
    ['web', ['https://app.example.org/callback']],
    ['spa', ['https://spa.example.org/callback']],
    ['mobile', ['com.example.app:/callback']],
  ])('refuses client_credentials to a %s application: unauthorized_client', async (appType, redirectUris) => {
    const client = await svc.createClient({ appType, redirectUris });
    const res = await clientCredentials(client);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('unauthorized_client');
  });

  it('gives a server application no user-facing grant: a code or a refresh token is unauthorized_client', async () => {
    const client = await serverApp();
    const requests: Array<Record<string, string>> = [
      { grant_type: 'authorization_code', code: 'a-code', redirect_uri: 'https://app.example.org/callback', code_verifier: 'v'.repeat(43) },
      { grant_type: 'refresh_token', refresh_token: 'a-refresh-token' },
    ];
    for (const fields of requests) {
      const res = await clientCredentials(client, fields);
      expect(res.status, fields.grant_type).toBe(400);
      expect(res.json.error, fields.grant_type).toBe('unauthorized_client');
    }
  });

  it('sends nobody to sign in to a server application: the authorization endpoint refuses it', async () => {
    const client = await serverApp();
    const url = new URL(`${svc.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: client.clientId,
      response_type: 'code',
      redirect_uri: 'https://app.example.org/callback',
      scope: 'openid',
      state: 'state',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    // No redirect URI is registered, so the error stays on the service's page instead of going anywhere.
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

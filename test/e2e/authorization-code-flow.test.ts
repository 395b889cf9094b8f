// The spec's flow end to end, with openid-client as the application.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { authorize, exchangeCode, signIn, userinfo } from '../support/flow.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

describe('authorization code flow with PKCE', () => {
  it('publishes the /oauth/* endpoints in discovery', async () => {
    const res = await fetch(`${svc.url}/.well-known/openid-configuration`);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: svc.url,
      authorization_endpoint: `${svc.url}/oauth/authorize`,
      token_endpoint: `${svc.url}/oauth/token`,
      userinfo_endpoint: `${svc.url}/oauth/userinfo`,
      revocation_endpoint: `${svc.url}/oauth/token/revoke`,
      introspection_endpoint: `${svc.url}/oauth/token/introspect`,
      jwks_uri: `${svc.url}/oauth/jwks`,
      end_session_endpoint: `${svc.url}/oauth/logout`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      subject_types_supported: ['pairwise'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(doc.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_post', 'client_secret_basic']));
    expect(JSON.stringify(doc)).not.toMatch(/HS256|client_secret_jwt/);
    expect(doc.id_token_signing_alg_values_supported).toContain('RS256');
  });

  it('signs a user in: code and state on the redirect, the token response of the spec, the profile', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const { callback, start, tokens } = await signIn(svc.url, rp, user);

    expect(callback.origin + callback.pathname).toBe(client.redirectUri);
    expect(callback.searchParams.get('state')).toBe(start.state);
    expect(callback.searchParams.get('iss')).toBe(svc.url);
    expect(callback.searchParams.get('code')).toBeTruthy();

    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.id_token).toBeTruthy();

    const idClaims = tokens.claims()!;
    expect(idClaims.iss).toBe(svc.url);
    expect(idClaims.aud).toBe(client.clientId);
    // The ID token carries no profile data when an access token is issued (the userinfo holds it).
    expect(idClaims).not.toHaveProperty('email');
    expect(idClaims).not.toHaveProperty('username');

    const profile = await oidc.fetchUserInfo(rp.config, tokens.access_token, idClaims.sub);
    expect(profile).toEqual({
      sub: idClaims.sub,
      email: user.email,
      email_verified: true,
      username: user.username,
      first_name: user.firstName,
    });
  });

  it('exchanges the code with a plain form POST, one field per parameter, as curl -d does', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const flow = await authorize(svc.url, rp, user);
    const res = await exchangeCode(svc.url, client, flow);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(Object.keys(res.json).sort()).toEqual(['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type']);
    const me = await userinfo(svc.url, String(res.json.access_token));
    expect(me.status).toBe(200);
    expect(me.json.email).toBe(user.email);
  });

  it('accepts the client secret in HTTP Basic too (RFC 6749 §2.3.1)', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client, 'basic');
    const { tokens } = await signIn(svc.url, rp, user);
    expect(tokens.access_token).toBeTruthy();
  });
});

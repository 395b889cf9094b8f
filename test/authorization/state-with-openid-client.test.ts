// openid-client 6's documented flow (discovery, PKCE, buildAuthorizationUrl, authorizationCodeGrant) against
// the service, which requires `state`. The quick start sends `state` only when the server does not support
// PKCE, so it arrives here without one: the refusal must say what to send and how, in the redirect the
// application reads and on the page a visitor sees when the error is held back from an unverified one.
import * as client from 'openid-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_REQUIRED } from '../../src/provider/authorization-params.ts';
import { signInAndConsent, Browser } from '../support/browser.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { registerApp, signInToPortal, VALID_APP } from '../portal/support.ts';

let svc: TestService;
let app: TestClient;
let config: client.Configuration;
beforeAll(async () => {
  svc = await startTestService();
  app = await svc.createClient();
  // The documented start: discovery, then the client's secret (client_secret_post, as the portal registers it).
  config = await client.discovery(new URL(svc.url), app.clientId, undefined, client.ClientSecretPost(app.clientSecret), {
    execute: [client.allowInsecureRequests],
  });
});
afterAll(() => svc.stop());

/** The documented authorization URL, with or without `state`. */
async function documentedStart(withState: boolean) {
  const codeVerifier = client.randomPKCECodeVerifier();
  const parameters: Record<string, string> = {
    redirect_uri: app.redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  };
  // The quick start adds state only when PKCE is not supported; the fix is to add it always.
  const state = withState || !config.serverMetadata().supportsPKCE() ? client.randomState() : undefined;
  if (state) parameters.state = state;
  return { url: client.buildAuthorizationUrl(config, parameters), codeVerifier, state };
}

describe('openid-client 6, as documented', () => {
  it('gets tokens and the signed-in user when it sends state', async () => {
    const user = await svc.createUser();
    const start = await documentedStart(true);
    const { callback } = await signInAndConsent(new Browser(svc.url), start.url.href, user, { scopes: ['openid', 'email', 'profile'] });
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.codeVerifier,
      expectedState: start.state,
    });
    expect(tokens.access_token).toBeTruthy();
    const sub = tokens.claims()!.sub;
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(info).toMatchObject({ sub, email: user.email, first_name: user.firstName });
  });

  it('without state gets an error description that names the fix', async () => {
    const start = await documentedStart(false);
    expect(start.url.searchParams.has('state')).toBe(false);
    const res = await fetch(start.url, { redirect: 'manual' });
    const callback = new URL(res.headers.get('location')!, svc.url);
    expect(`${callback.origin}${callback.pathname}`).toBe(app.redirectUri);
    const refusal = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.codeVerifier }).then(
      () => undefined,
      (error: unknown) => error as client.AuthorizationResponseError,
    );
    expect(refusal).toBeInstanceOf(client.AuthorizationResponseError);
    expect(refusal!.error).toBe('invalid_request');
    expect(refusal!.error_description).toBe(STATE_REQUIRED);
    expect(refusal!.error_description).toContain('state: client.randomState()');
    expect(refusal!.error_description).toMatch(/^state is required: send a random value/);
  });

  it('shows the same fix on the page a visitor gets when the error is held back from an unverified application', async () => {
    const owner = await signInToPortal(svc);
    const { clientId } = await registerApp(owner, VALID_APP);
    const codeVerifier = client.randomPKCECodeVerifier();
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: 'https://app.example.org/callback',
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    const page = await request(svc.url).get(`/oauth/authorize?${query}`).set('Accept-Language', 'fr').redirects(0);
    expect(page.status).toBe(400);
    expect(page.headers.location).toBeUndefined();
    expect(page.text).toContain('<html lang="fr">');
    expect(page.text).toContain('state: client.randomState()');
    expect(page.text).toContain('send a random value in state');
  });
});

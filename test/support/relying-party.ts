// The application side of a flow, played by openid-client (a certified relying-party library).
import * as oidc from 'openid-client';
import type { TestClient } from './service.ts';

export interface RelyingParty {
  config: oidc.Configuration;
  client: TestClient;
  /** Starts a flow: the authorize URL and the checks to keep for the callback. */
  start(params?: Record<string, string>): Promise<{ url: string; state: string; verifier: string }>;
  /** Redeems the code in `callback` with the checks of `start`. */
  redeem(callback: URL, checks: { state: string; verifier: string }): ReturnType<typeof oidc.authorizationCodeGrant>;
}

export async function relyingParty(issuer: string, client: TestClient, auth: 'post' | 'basic' = 'post'): Promise<RelyingParty> {
  const method = auth === 'post' ? oidc.ClientSecretPost(client.clientSecret) : oidc.ClientSecretBasic(client.clientSecret);
  const config = await oidc.discovery(new URL(issuer), client.clientId, undefined, method, {
    execute: [oidc.allowInsecureRequests],
  });
  return {
    config,
    client,
    async start(params = {}) {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: client.redirectUri,
        scope: client.scopes.join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        ...params,
      });
      return { url: url.href, state, verifier };
    },
    redeem(callback, checks) {
      return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: checks.verifier, expectedState: checks.state });
    },
  };
}

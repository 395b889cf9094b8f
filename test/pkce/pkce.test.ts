// PKCE with S256 is required of every client; `plain` and a wrong verifier fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { Browser } from '../support/browser.ts';
import { authorize, exchangeCode } from '../support/flow.ts';

let svc: TestService;
let client: TestClient;
beforeAll(async () => {
  svc = await startTestService();
  client = await svc.createClient();
});
afterAll(() => svc.stop());

async function authorizeRaw(params: Record<string, string>): Promise<URL> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'openid email',
    state: 'st-123',
    ...params,
  });
  const step = await new Browser(svc.url).open(`/oauth/authorize?${query}`);
  if (!(step instanceof URL)) throw new Error(`expected a redirect to the client, got page ${step.status}`);
  return step;
}

describe('PKCE', () => {
  it('refuses an authorization request without code_challenge, redirecting with the error, state and iss', async () => {
    const back = await authorizeRaw({});
    expect(back.origin + back.pathname).toBe(client.redirectUri);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('iss')).toBe(svc.url);
  });

  it('refuses the plain method', async () => {
    const back = await authorizeRaw({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('st-123');
  });

  it('refuses a code redeemed with the wrong verifier', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, client);
    const flow = await authorize(svc.url, rp, user);
    const res = await exchangeCode(svc.url, client, flow, { code_verifier: 'x'.repeat(43) });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('refuses a code redeemed without a verifier', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, client);
    const flow = await authorize(svc.url, rp, user);
    const res = await exchangeCode(svc.url, client, flow, { code_verifier: undefined });
    expect(res.status).toBe(400);
    expect(['invalid_grant', 'invalid_request']).toContain(res.json.error);
  });
});

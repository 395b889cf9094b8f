// The authorization endpoint as a strict client sees it: `state` required, answers in the query or by
// form_post only, POST accepted like GET, and the form_post page under a policy that runs its own
// script and nothing else.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';

let svc: TestService;
let client: TestClient;
let params: Record<string, string>;
beforeAll(async () => {
  svc = await startTestService();
  client = await svc.createClient();
  params = {
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope: 'openid email',
    state: 'etat-1',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
  };
});
afterAll(() => svc.stop());

const get = (query: Record<string, string>) =>
  request(svc.url)
    .get(`/oauth/authorize?${new URLSearchParams(query)}`)
    .redirects(0);
/** The parameters an answer sent back to the application carries, from the query only. */
function answerOf(location: string) {
  const url = new URL(location);
  expect(url.hash, 'nothing travels in the fragment').toBe('');
  expect(`${url.origin}${url.pathname}`).toBe(client.redirectUri);
  return Object.fromEntries(url.searchParams);
}

describe('the authorization endpoint', () => {
  it('requires state: without it, the application gets invalid_request (with iss), not the login page', async () => {
    const { state: _state, ...withoutState } = params;
    const res = await get(withoutState);
    expect(res.status).toBe(303);
    expect(answerOf(res.headers.location)).toMatchObject({ error: 'invalid_request', iss: svc.url });
    expect(res.headers.location).toMatch(/state/);
  });

  it('shows its error page, and sends nothing, when state is missing and the redirect URI is not registered', async () => {
    const { state: _state, ...withoutState } = params;
    const res = await get({ ...withoutState, redirect_uri: 'https://evil.example/cb' });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('<html lang="fr">');
  });

  it('refuses response_mode=fragment, answering in the query', async () => {
    const res = await get({ ...params, response_mode: 'fragment' });
    expect(res.status).toBe(303);
    expect(answerOf(res.headers.location)).toMatchObject({ error: 'invalid_request', state: 'etat-1', iss: svc.url });
  });

  it('answers an unsupported response_type=token in the query', async () => {
    const res = await get({ ...params, response_type: 'token' });
    expect(res.status).toBe(303);
    expect(answerOf(res.headers.location)).toMatchObject({ error: 'unsupported_response_type', state: 'etat-1' });
  });

  it('publishes query and form_post as its only response modes', async () => {
    const doc = (await request(svc.url).get('/.well-known/openid-configuration')).body as Record<string, unknown>;
    expect(doc.response_modes_supported).toEqual(['query', 'form_post']);
  });

  it('accepts POST with a form body, with the same checks as GET (OpenID Connect Core §3.1.2.1)', async () => {
    const posted = await request(svc.url).post('/oauth/authorize').type('form').send(new URLSearchParams(params).toString()).redirects(0);
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toMatch(/^\/interaction\//);

    const { state: _state, ...withoutState } = params;
    const refused = await request(svc.url)
      .post('/oauth/authorize')
      .type('form')
      .send(new URLSearchParams(withoutState).toString())
      .redirects(0);
    expect(answerOf(refused.headers.location)).toMatchObject({ error: 'invalid_request' });

    const json = await request(svc.url).post('/oauth/authorize').send(params).redirects(0);
    expect(json.status).toBe(400);
    expect(json.headers.location).toBeUndefined();
  });

  it('serves the form_post page under a policy allowing its own script only, and no framing', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, client);
    // Signed in and consented once; the next authorization answers at once, by form_post.
    const { browser } = await authorize(svc.url, rp, user, { params: { scope: 'openid email' } });
    const start = await rp.start({ response_mode: 'form_post', scope: 'openid email' });
    const page = await browser.agent.get(new URL(start.url).pathname + new URL(start.url).search).redirects(0);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`action="${client.redirectUri}"`);
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.text)?.[1];
    expect(script).toBeTruthy();
    const hash = createHash('sha256').update(script!).digest('base64');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toMatch(new RegExp(`script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'(;|$)`));
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
  });
});

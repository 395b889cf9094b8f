// An instance whose issuer is https: Strict-Transport-Security on its answers, and a plain-http request
// (a misrouted load balancer, a curl without the s) gets a clear 400, never a 500.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
let clientId: string;
beforeAll(async () => {
  // Behind a TLS-terminating proxy that says so in X-Forwarded-Proto.
  svc = await startTestService({ issuer: 'https://signin.example.org', trustProxy: true });
  clientId = (await svc.createClient()).clientId;
});
afterAll(() => svc.stop());

const authorizeQuery = () =>
  `/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: 'https://app.example.org/callback', scope: 'openid', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`;

describe('an https issuer', () => {
  it('sends Strict-Transport-Security', async () => {
    const res = await request(svc.url).get('/.well-known/openid-configuration').set('X-Forwarded-Proto', 'https');
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('runs the authorization over https', async () => {
    const res = await request(svc.url).get(authorizeQuery()).set('X-Forwarded-Proto', 'https').redirects(0);
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/\/interaction\//);
  });

  it('answers a plain-http request with a clear 400: a page for a browser, JSON for a program', async () => {
    const page = await request(svc.url).get(authorizeQuery()).set('Accept-Language', 'en').redirects(0);
    expect(page.status).toBe(400);
    expect(page.text).toContain('only available over HTTPS');
    const account = await request(svc.url).get('/account');
    expect(account.status).toBe(400);
    const token = await request(svc.url).post('/oauth/token').type('form').send({ grant_type: 'refresh_token' });
    expect(token.status).toBe(400);
    expect(token.body).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringContaining('https://signin.example.org'),
    });
  });

  it('keeps answering its health checks over plain http (a load balancer probes the instance directly)', async () => {
    expect((await request(svc.url).get('/healthz')).status).toBe(200);
  });
});

// The headers a strict client expects: nosniff on every response (JSON, redirects, 404s included),
// no caching of token, userinfo and introspection answers (HTTP/1.0 caches too), 405 with Allow for a
// wrong method, 401 with a challenge for a missing client authentication, and the client
// authentication methods of revocation and introspection in discovery.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, exchangeCode, postForm } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

describe('response headers', () => {
  it('say nosniff on JSON, redirects, pages and 404s', async () => {
    const client = await svc.createClient();
    for (const path of [
      '/.well-known/openid-configuration',
      `/oauth/authorize?client_id=${client.clientId}&response_type=code`,
      '/portal/login',
      '/oauth/no-such-endpoint',
      '/no-such-page',
      '/healthz',
    ]) {
      const res = await request(svc.url).get(path).redirects(0);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('answer a page that does not exist with the localized 404 page', async () => {
    const res = await request(svc.url).get('/no-such-page').set('Accept-Language', 'en');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<html lang="en">');
  });

  it('forbid caching token, userinfo and introspection answers, with Pragma for HTTP/1.0 caches', async () => {
    const client = await svc.createClient();
    const flow = await authorize(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    const token = await exchangeCode(svc.url, client, flow);
    expect(token.status).toBe(200);
    const accessToken = String(token.json.access_token);
    const userinfo = await fetch(`${svc.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
    const introspection = await postForm(`${svc.url}/oauth/token/introspect`, {
      token: accessToken,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    for (const [name, headers] of [
      ['token', token.headers],
      ['userinfo', userinfo.headers],
      ['introspection', introspection.headers],
    ] as const) {
      expect(headers.get('cache-control'), name).toBe('no-store');
      expect(headers.get('pragma'), name).toBe('no-cache');
    }
  });
});

describe('methods and client authentication', () => {
  it('answer a wrong method with 405 and the methods allowed, as JSON', async () => {
    for (const [path, allow] of [
      ['/oauth/token', 'POST'],
      ['/oauth/token/revoke', 'POST'],
      ['/oauth/token/introspect', 'POST'],
    ]) {
      const res = await request(svc.url).get(path);
      expect(res.status, path).toBe(405);
      expect(res.headers.allow, path).toContain(allow);
      expect(res.body.error, path).toBe('invalid_request');
    }
    const page = await request(svc.url).delete('/oauth/authorize').set('Accept-Language', 'fr');
    expect(page.status).toBe(405);
    expect(page.headers.allow).toBe('GET, HEAD, POST');
    expect(page.text).toContain('<html lang="fr">');
  });

  it('answer a revocation without client credentials with 401 invalid_client and a challenge', async () => {
    const res = await postForm(`${svc.url}/oauth/token/revoke`, { token: 'a-token' });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
    expect(res.headers.get('www-authenticate')).toBe(`Basic realm="${svc.url}"`);
  });

  it('publish the client authentication methods of revocation and introspection', async () => {
    const doc = (await request(svc.url).get('/.well-known/openid-configuration')).body as Record<string, unknown>;
    expect(doc.revocation_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_post', 'client_secret_basic']));
    expect(doc.introspection_endpoint_auth_methods_supported).toEqual(['client_secret_post', 'client_secret_basic']);
  });
});

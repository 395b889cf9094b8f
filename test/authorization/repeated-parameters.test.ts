// A parameter sent twice to the authorization endpoint (RFC 6749 §4.1.2.1): once the application and
// its redirect URI are known good, the application gets `invalid_request` (with `iss`, RFC 9207, and its
// `state` unless `state` is the repeated one); a repeated `client_id` or `redirect_uri` names no single
// application or address, so the user gets the page. An application no operator stands behind gets the
// page too while the visitor is not signed in, and the security log says so.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogCapture } from '../security-log/capture.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';

const log = new LogCapture();
let svc: TestService;
let client: TestClient;
let params: Record<string, string>;
beforeAll(async () => {
  svc = await startTestService({ log: { level: 'info', pretty: false } }, { logDestination: log.destination });
  client = await svc.createClient();
  params = {
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope: 'openid email',
    state: 'etat-1',
    nonce: 'nonce-1',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
  };
});
afterAll(() => svc.stop());

/** `params` as a query or form text, with `name` sent a second time with another value. */
function twice(base: Record<string, string>, name: string): string {
  const text = new URLSearchParams(base);
  text.append(name, `${base[name] ?? 'x'}-autre`);
  return text.toString();
}

const get = (query: string) => request(svc.url).get(`/oauth/authorize?${query}`).set('Accept-Language', 'fr').redirects(0);
const post = (body: string) => request(svc.url).post('/oauth/authorize').set('Accept-Language', 'fr').type('form').send(body).redirects(0);

/** The answer the application got, from the query of its redirect URI. */
function answerOf(res: request.Response, redirectUri = client.redirectUri): Record<string, string> {
  expect(res.status, res.text.slice(0, 300)).toBe(303);
  const url = new URL(res.headers.location as string);
  expect(`${url.origin}${url.pathname}`).toBe(redirectUri);
  expect(url.hash).toBe('');
  return Object.fromEntries(url.searchParams);
}

function expectPage(res: request.Response) {
  expect(res.status).toBe(400);
  expect(res.headers.location).toBeUndefined();
  expect(res.text).toContain('<html lang="fr">');
  expect(res.text).toContain('Demande invalide');
}

describe('a parameter repeated at the authorization endpoint', () => {
  for (const name of ['state', 'scope', 'nonce', 'code_challenge', 'response_type']) {
    it(`${name} twice: invalid_request back to the application, with iss`, async () => {
      const answer = answerOf(await get(twice(params, name)));
      expect(answer).toMatchObject({ error: 'invalid_request', iss: svc.url });
      // The state names the request only when it was sent once.
      if (name === 'state') expect(answer).not.toHaveProperty('state');
      else expect(answer.state).toBe('etat-1');
      // Short, and nothing of the request's values in it.
      expect(answer.error_description).toBe(`'${name}' parameter must not be provided twice`);
    });
  }

  it('posted twice in a form body: the same redirect', async () => {
    const answer = answerOf(await post(twice(params, 'scope')));
    expect(answer).toMatchObject({ error: 'invalid_request', state: 'etat-1', iss: svc.url });
  });

  it('client_id or redirect_uri twice: the page, and nothing sent anywhere', async () => {
    for (const name of ['client_id', 'redirect_uri']) {
      expectPage(await get(twice(params, name)));
      expectPage(await post(twice(params, name)));
    }
  });

  it('with a redirect URI the application did not register: the page', async () => {
    const res = await get(twice({ ...params, redirect_uri: 'https://evil.example/cb' }, 'state'));
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('Adresse de retour non reconnue');
  });

  it('from an application registered by an owner and not verified: the page, logged as held', async () => {
    const owner = await svc.createUser();
    const redirectUri = 'https://attacker.test/cb';
    const { client: unverified } = await svc.service.context.clients.create({
      name: 'Appli du portail',
      description: 'Enregistrée par son propriétaire',
      appType: 'web',
      redirectUris: [redirectUri],
      scopes: ['openid', 'email'],
      ownerId: owner.id,
    });
    const res = await get(twice({ ...params, client_id: unverified.clientId, redirect_uri: redirectUri }, 'state'));
    expectPage(res);
    expect(log.one('authorization.redirect_held', { client_id: unverified.clientId })).toMatchObject({
      level: 'warn',
      outcome: 'blocked',
      reason: 'invalid_request',
      endpoint: '/oauth/authorize',
    });

    await svc.service.context.clients.setVerified(unverified.clientId, true);
    expect(
      answerOf(await get(twice({ ...params, client_id: unverified.clientId, redirect_uri: redirectUri }, 'state')), redirectUri),
    ).toMatchObject({
      error: 'invalid_request',
      iss: svc.url,
    });
  });
});

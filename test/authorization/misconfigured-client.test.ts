// An application registered before a redirect URI rule existed, with a URI that now breaks it (here a
// user part: the code would go to the host after the @), is refused at authorization with a page
// saying so, and nothing is sent to that URI. Replacing the URI lifts the refusal.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const authorizeUrl = (clientId: string, redirectUri: string) =>
  `/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    state: 's',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
  })}`;

describe('an application with a redirect URI that breaks the rules', () => {
  it('is refused at authorization with a clear page, until its URI is replaced', async () => {
    const { clientId } = await svc.createClient();
    const bad = 'https://rp1.example@evil.test/cb';
    const { db, clients } = svc.service.context;
    await db.query(`UPDATE clients SET redirect_uris = $2 WHERE client_id = $1`, [clientId, JSON.stringify([bad])]);

    const refused = await request(svc.url).get(authorizeUrl(clientId, bad)).set('Accept-Language', 'fr').redirects(0);
    expect(refused.status).toBe(400);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.text).toContain('Application mal configurée');
    // No link to the registered address either (the language links name this very page only).
    expect(refused.text).not.toContain(`href="${bad}`);

    await clients.update(clientId, { redirectUris: ['https://rp1.example/cb'] });
    const allowed = await request(svc.url).get(authorizeUrl(clientId, 'https://rp1.example/cb')).redirects(0);
    expect(allowed.status).toBe(303);
    expect(allowed.headers.location).toMatch(/^\/interaction\//);
  });
});

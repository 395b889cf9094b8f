// CORS preflights carry no client_id: they are answered only for an origin a registered application
// runs on (a single-page application's for the token endpoint, any application's for userinfo), and
// never for `null` or an unknown origin, which the engine alone would have let in.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  await svc.createClient({ appType: 'spa', redirectUris: ['https://spa.example.org/callback'] });
  await svc.createClient({ appType: 'web', redirectUris: ['https://web.example.org/callback'] });
});
afterAll(() => svc.stop());

const preflight = (path: string, origin: string) =>
  request(svc.url)
    .options(path)
    .set({ Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' });

describe('CORS preflights', () => {
  it('are answered for the origin of a registered single-page application', async () => {
    const res = await preflight('/oauth/token', 'https://spa.example.org');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://spa.example.org');
  });

  it('are refused, without any Access-Control-Allow header, for null, an unknown origin, or a web application at the token endpoint', async () => {
    for (const [path, origin] of [
      ['/oauth/token', 'null'],
      ['/oauth/token', 'https://evil.example.net'],
      ['/oauth/token', 'https://web.example.org'],
      ['/oauth/token/revoke', 'null'],
      ['/oauth/token/introspect', 'https://evil.example.net'],
      ['/oauth/par', 'null'],
      ['/oauth/userinfo', 'https://evil.example.net'],
    ]) {
      const res = await preflight(path, origin);
      expect(res.status, `${path} from ${origin}`).toBe(403);
      expect(
        Object.keys(res.headers).filter((h) => h.startsWith('access-control-allow')),
        `${path} from ${origin}`,
      ).toEqual([]);
    }
  });

  it('let any registered application call userinfo, and anyone read discovery and the keys', async () => {
    expect((await preflight('/oauth/userinfo', 'https://web.example.org')).headers['access-control-allow-origin']).toBe(
      'https://web.example.org',
    );
    const open = await request(svc.url)
      .options('/oauth/jwks')
      .set({ Origin: 'https://anyone.example', 'Access-Control-Request-Method': 'GET' });
    expect(open.status).toBe(204);
  });

  it('follow a newly registered single-page application at once', async () => {
    expect((await preflight('/oauth/token', 'https://new-spa.example.org')).status).toBe(403);
    await svc.createClient({ appType: 'spa', redirectUris: ['https://new-spa.example.org/cb'] });
    expect((await preflight('/oauth/token', 'https://new-spa.example.org')).status).toBe(204);
  });
});

// CORS: a single-page application redeems its code from its own origin; other origins, and other
// types of application, get no CORS permission at the token endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { authorize, exchangeCode } from '../support/flow.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

async function redeemFrom(appType: 'spa' | 'web', origin: string) {
  const client = await svc.createClient({ appType, redirectUris: ['https://spa.example.org/callback'] });
  const flow = await authorize(svc.url, await relyingParty(svc.url, client), await svc.createUser());
  const res = await exchangeCode(svc.url, client, flow, {}, { origin });
  return { status: res.status, allowOrigin: res.headers.get('access-control-allow-origin') };
}

describe('CORS at the token endpoint', () => {
  it('lets a single-page application redeem from the origin of its redirect URI', async () => {
    const res = await redeemFrom('spa', 'https://spa.example.org');
    expect(res.status).toBe(200);
    expect(res.allowOrigin).toBe('https://spa.example.org');
  });

  it('refuses another origin, and the origin of a web application', async () => {
    expect((await redeemFrom('spa', 'https://evil.example.net')).status).toBe(400);
    expect((await redeemFrom('web', 'https://spa.example.org')).status).toBe(400);
  });
});

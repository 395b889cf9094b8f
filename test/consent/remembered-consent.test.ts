// The rule of src/consents/remembered-consent.ts on its own, and the loadExistingGrant hook applying it
// with the engine's real Grant model (an engine built in memory, no server): a single-page app's
// remembered consent counts only when it is verified and all its redirect URIs are https.
import Provider from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { remembersConsent, type ConsentClient } from '../../src/consents/remembered-consent.ts';
import { makeLoadExistingGrant } from '../../src/provider/load-existing-grant.ts';

const VERIFIED = new Date('2025-01-01T00:00:00Z');
const app = (appType: ConsentClient['appType'], redirectUris: string[], verifiedAt: Date | null = null): ConsentClient => ({
  appType,
  redirectUris,
  verifiedAt,
  firstParty: false,
});

describe('remembersConsent', () => {
  it.each([
    ['an unverified spa', app('spa', ['https://spa.example.org/cb']), false],
    ['a verified spa, all https', app('spa', ['https://spa.example.org/cb', 'https://b.example.net/cb'], VERIFIED), true],
    ['a verified spa with an http loopback URI', app('spa', ['https://spa.example.org/cb', 'http://localhost:5173/cb'], VERIFIED), false],
    ['a verified spa without a redirect URI', app('spa', [], VERIFIED), false],
    ['a web application', app('web', ['https://site.example.org/cb']), true],
    ['a server application', app('server', []), true],
    // The engine asks at every authorization of a native application; this rule does not stand in its way.
    ['a mobile app', app('mobile', ['com.example.app:/cb']), true],
    ['an application of the service itself', { ...app('spa', ['http://localhost:3000/portal/callback']), firstParty: true }, true],
  ])('%s: %s', (_name, client, expected) => {
    expect(remembersConsent(client)).toBe(expected);
  });
});

describe('loadExistingGrant for a single-page app', () => {
  const provider = new Provider('http://127.0.0.1:1', { features: { devInteractions: { enabled: false } } });
  const REFRESH_TTL = 30 * 24 * 3600;

  async function setUp(client: ConsentClient) {
    const grant = new provider.Grant({ accountId: 'awa', clientId: 'spa-1' });
    grant.addOIDCScope('openid email');
    const grantId = await grant.save();
    const consents = { latest: async () => ({ accountId: 'awa', clientId: 'spa-1', grantId, scopes: [], createdAt: new Date() }) };
    const load = makeLoadExistingGrant(consents, REFRESH_TTL, { get: async (id: string) => (id === 'spa-1' ? client : undefined) });
    const request = (fresh?: string) => ({
      oidc: {
        client: { clientId: 'spa-1' },
        session: { accountId: 'awa', grantIdFor: () => grantId },
        result: fresh ? { consent: { grantId: fresh } } : undefined,
        params: { scope: 'openid email' },
        provider,
      },
    });
    return { grantId, load, request };
  }

  it('gives the engine no remembered Grant for an unverified spa, so that consent is asked', async () => {
    const { load, request } = await setUp(app('spa', ['https://spa.example.org/cb']));
    expect(await load(request())).toBeUndefined();
  });

  it('still takes the consent just given', async () => {
    const { grantId, load, request } = await setUp(app('spa', ['https://spa.example.org/cb']));
    expect((await load(request(grantId)))?.jti).toBe(grantId);
  });

  it('gives the remembered Grant of a verified spa whose redirect URIs are https', async () => {
    const { grantId, load, request } = await setUp(app('spa', ['https://spa.example.org/cb'], VERIFIED));
    expect((await load(request()))?.jti).toBe(grantId);
  });
});

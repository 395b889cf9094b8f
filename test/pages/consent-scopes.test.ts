import { describe, expect, it } from 'vitest';
import { decideConsent, offeredScopes, requestedScopes, scopeItems } from '../../interactions/consent-scopes.ts';
import { translator } from '../../src/i18n/index.ts';

describe('consent scopes', () => {
  it('offers requested scopes the application is registered for, once each', () => {
    const requested = requestedScopes('openid  email profile email offline_access');
    expect(requested).toEqual(['openid', 'email', 'profile', 'offline_access']);
    expect(offeredScopes(requested, ['openid', 'email'])).toEqual(['openid', 'email']);
  });

  it('always grants the required scopes (openid, email), grants ticked ones, rejects every other requested scope', () => {
    const decision = decideConsent(['openid', 'email', 'profile', 'offline_access'], ['openid', 'email', 'profile'], ['address']);
    expect(decision.granted).toEqual(['openid', 'email']);
    expect(decision.rejected).toEqual(['profile', 'offline_access']);
  });

  it('describes each scope with the data it shares', () => {
    const account = { id: 'a1', email: 'awa@example.org', emailVerified: true, username: 'awa', firstName: 'Awa' };
    const items = scopeItems(['openid', 'email', 'profile'], account, translator('fr'));
    expect(items.map((i) => [i.name, i.required])).toEqual([
      ['openid', true],
      ['email', true],
      ['profile', false],
    ]);
    expect(items[1].value).toBe('awa@example.org');
    expect(items[2].value).toBe('awa · Awa');
  });
});

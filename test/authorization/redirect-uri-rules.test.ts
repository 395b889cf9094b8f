// The redirect URI rules, in one place for the CLI, the portal and the authorization endpoint.
import { describe, expect, it } from 'vitest';
import { invalidRedirectUriReport, redirectUriProblem } from '../../src/clients/redirect-uris.ts';

describe('redirect URI rules', () => {
  it.each([
    ['https://app.example.org/callback', 'web', undefined],
    ['https://app.example.org/cb?x=1', 'web', undefined],
    ['http://localhost:8080/cb', 'web', undefined],
    ['http://127.0.0.1/cb', 'mobile', undefined],
    ['http://[::1]:51000/cb', 'mobile', undefined],
    ['com.example.app:/oauth/callback', 'mobile', undefined],
    ['https://rp1.example@evil.test/cb', 'web', 'redirect_uri.userinfo'],
    ['https://user:pw@rp.example/cb', 'web', 'redirect_uri.userinfo'],
    ['https://@rp.example/cb', 'web', 'redirect_uri.userinfo'],
    ['com.example.app://user@host/cb', 'mobile', 'redirect_uri.userinfo'],
    ['https://app.example.org/cb#frag', 'web', 'redirect_uri.fragment'],
    ['https://*.example.org/cb', 'web', 'redirect_uri.wildcard'],
    ['/callback', 'web', 'redirect_uri.not_absolute'],
    ['https://app.example.org/c b', 'web', 'redirect_uri.not_absolute'],
    ['http://app.example.org/cb', 'web', 'redirect_uri.https_required'],
    ['http://localhost.evil.test/cb', 'web', 'redirect_uri.https_required'],
    ['com.example.app:/callback', 'web', 'redirect_uri.https_required'],
    ['myapp:/callback', 'mobile', 'redirect_uri.mobile_scheme'],
  ])('%s (%s): %s', (uri, appType, problem) => {
    expect(redirectUriProblem(uri, appType)).toBe(problem);
  });

  it('report the registered applications that break a rule, not the service’s own', () => {
    const report = invalidRedirectUriReport([
      { clientId: 'ok', appType: 'web', redirectUris: ['https://ok.example/cb'] },
      { clientId: 'old', appType: 'web', redirectUris: ['https://ok.example/cb', 'https://a.example@evil.test/cb'] },
      { clientId: 'portal', appType: 'web', redirectUris: ['http://signin.internal/portal/callback'], firstParty: true },
    ]);
    expect(report).toHaveLength(1);
    expect(report[0]).toMatch(/^warning: old: redirect URI https:\/\/a\.example@evil\.test\/cb must not contain a user name or password/);
  });
});

// The redirect URI rules, in one place for the CLI, the portal and the authorization endpoint.
import { describe, expect, it } from 'vitest';
import {
  canonicalRedirectUri,
  describeRedirectUriProblem,
  invalidRedirectUriReport,
  redirectUriProblem,
} from '../../src/clients/redirect-uris.ts';

describe('redirect URI rules', () => {
  it.each([
    ['https://app.example.org/callback', 'web', undefined],
    ['https://app.example.org/cb?x=1', 'web', undefined],
    ['http://localhost:8080/cb', 'spa', undefined],
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
    // http on a loopback host is for development of single-page and mobile apps only: a web application needs https.
    ['http://localhost/cb', 'web', 'redirect_uri.https_required'],
    ['http://127.0.0.1:3000/cb', 'web', 'redirect_uri.https_required'],
    ['http://[::1]/cb', 'web', 'redirect_uri.https_required'],
    ['http://app.example.org/cb', 'spa', 'redirect_uri.https_required'],
    ['com.example.app:/callback', 'spa', 'redirect_uri.https_required'],
    // A browser reads a backslash as a slash, other parsers do not.
    ['https:/\\evil.test/cb', 'web', 'redirect_uri.backslash'],
    ['https://rp.example\\@evil.test/cb', 'web', 'redirect_uri.backslash'],
    ['https://rp.example/a\\cb', 'spa', 'redirect_uri.backslash'],
    // Written otherwise than a browser would send it.
    ['https:rp.example/cb', 'web', 'redirect_uri.not_canonical'],
    ['https:/rp.example/cb', 'web', 'redirect_uri.not_canonical'],
    ['HTTPS://RP.example:443/cb', 'web', 'redirect_uri.not_canonical'],
    ['https://RP.example/cb', 'web', 'redirect_uri.not_canonical'],
    ['https://rp.example:443/cb', 'web', 'redirect_uri.not_canonical'],
    ['http://localhost:80/cb', 'spa', 'redirect_uri.not_canonical'],
    ['https://rp.example', 'web', 'redirect_uri.not_canonical'],
    ['https://rp.example/a/../cb', 'web', 'redirect_uri.not_canonical'],
    ['https://rp.example/./cb', 'web', 'redirect_uri.not_canonical'],
    ['https://rp.example/a/%2e%2E/cb', 'web', 'redirect_uri.not_canonical'],
    ['https://rp.example/%7Ecb', 'web', 'redirect_uri.not_canonical'],
    ['https://rp.example/caf%c3%a9', 'web', 'redirect_uri.not_canonical'],
    ['https://rp.example/café', 'web', 'redirect_uri.not_canonical'],
    ['https://bücher.example/cb', 'web', 'redirect_uri.not_canonical'],
    ['Com.Example.App:/callback', 'mobile', 'redirect_uri.not_canonical'],
    // Canonical already: accepted as typed.
    ['https://rp.example:8443/cb', 'web', undefined],
    ['https://rp.example/caf%C3%A9?next=%2Fhome', 'web', undefined],
    ['https://xn--bcher-kva.example/cb', 'web', undefined],
    ['com.example.app://callback/path', 'mobile', undefined],
  ])('%s (%s): %s', (uri, appType, problem) => {
    expect(redirectUriProblem(uri, appType)).toBe(problem);
  });

  it.each([
    ['https:rp.example/cb', 'https://rp.example/cb'],
    ['HTTPS://RP.example:443/cb', 'https://rp.example/cb'],
    ['https://rp.example/a/../cb', 'https://rp.example/cb'],
    ['https://rp.example/%7ecb?x=%2f', 'https://rp.example/~cb?x=%2F'],
    ['https://rp.example/café', 'https://rp.example/caf%C3%A9'],
    ['Com.Example.App:/callback', 'com.example.app:/callback'],
  ])('writes %s as %s, which is its own canonical form', (typed, canonical) => {
    expect(canonicalRedirectUri(typed)).toBe(canonical);
    expect(canonicalRedirectUri(canonical)).toBe(canonical);
    expect(redirectUriProblem(canonical, typed.startsWith('Com') ? 'mobile' : 'web')).toBeUndefined();
  });

  it('says how to write a URI that is not canonical, with the rule’s code', () => {
    expect(describeRedirectUriProblem('https:rp.example/cb', 'redirect_uri.not_canonical')).toMatch(
      /^is not written in its canonical form.*: write it as https:\/\/rp\.example\/cb \(redirect_uri\.not_canonical\)$/,
    );
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

  it('reports a web application’s http loopback URI and a URI not in canonical form as registered before the rule', () => {
    const report = invalidRedirectUriReport([
      { clientId: 'dev', appType: 'web', redirectUris: ['https://ok.example/cb', 'http://localhost:3000/cb'] },
      { clientId: 'legacy', appType: 'web', redirectUris: ['https:rp.example/cb'] },
      { clientId: 'spa', appType: 'spa', redirectUris: ['http://localhost:5173/cb'] },
      { clientId: 'mobile', appType: 'mobile', redirectUris: ['http://127.0.0.1/cb', 'com.example.app:/cb'] },
    ]);
    expect(report).toEqual([
      expect.stringMatching(
        /^warning: dev: redirect URI http:\/\/localhost:3000\/cb must use https: .*only for spa and mobile applications.* \(redirect_uri\.https_required\); registered before the rule, sign-ins to this application are refused/,
      ),
      expect.stringMatching(
        /^warning: legacy: redirect URI https:rp\.example\/cb is not written in its canonical form.*: write it as https:\/\/rp\.example\/cb \(redirect_uri\.not_canonical\); registered before the rule/,
      ),
    ]);
  });
});

// `https.hstsIncludeSubDomains`: off by default (the header covers the issuer's own host only); on, every
// response of an https issuer tells browsers to use https on its subdomains too.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

let plain: TestService;
let withSubdomains: TestService;
beforeAll(async () => {
  plain = await startTestService({ issuer: 'https://signin.example.org', trustProxy: true });
  withSubdomains = await startTestService({
    issuer: 'https://signin.example.org',
    trustProxy: true,
    https: { hstsIncludeSubDomains: true },
  });
});
afterAll(async () => {
  await plain?.stop();
  await withSubdomains?.stop();
});

const hsts = async (svc: TestService, path: string) =>
  (await request(svc.url).get(path).set('X-Forwarded-Proto', 'https').redirects(0)).headers['strict-transport-security'];

describe('Strict-Transport-Security and subdomains', () => {
  it('leaves subdomains out by default', async () => {
    expect(await hsts(plain, '/.well-known/openid-configuration')).toBe('max-age=31536000');
    expect(await hsts(plain, '/account')).toBe('max-age=31536000');
  });

  it('names them when https.hstsIncludeSubDomains is on, on protocol answers and pages alike', async () => {
    for (const path of ['/.well-known/openid-configuration', '/oauth/jwks', '/account', '/portal/', '/no-such-page']) {
      expect(await hsts(withSubdomains, path), path).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

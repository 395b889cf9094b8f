// Pages speak French by default and English when asked, through ui_locales or Accept-Language, with
// the security headers on every page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { Browser, isPage, type Page } from '../support/browser.ts';

let svc: TestService;
let client: TestClient;
beforeAll(async () => {
  svc = await startTestService();
  client = await svc.createClient({ name: 'Boutique Dakar' });
});
afterAll(() => svc.stop());

async function loginPage(params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Page> {
  const rp = await relyingParty(svc.url, client);
  const start = await rp.start(params);
  const page = await new Browser(svc.url, headers).open(start.url);
  if (!isPage(page)) throw new Error(`expected the login page, went to ${page.href}`);
  return page;
}

describe('page language', () => {
  it('is French by default', async () => {
    const page = await loginPage();
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<html lang="fr"/);
    expect(page.html).toContain('Adresse e\u2011mail');
    expect(page.html).toContain('Mot de passe');
    expect(page.html).toContain('Boutique Dakar');
  });

  it('follows ui_locales', async () => {
    const page = await loginPage({ ui_locales: 'en' });
    expect(page.html).toMatch(/<html lang="en"/);
    expect(page.html).toContain('Password');
    expect(page.html).not.toContain('Mot de passe');
  });

  it('follows Accept-Language when ui_locales is absent', async () => {
    const page = await loginPage({}, { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' });
    expect(page.html).toMatch(/<html lang="en"/);
  });

  it('prefers ui_locales over Accept-Language', async () => {
    const page = await loginPage({ ui_locales: 'fr' }, { 'accept-language': 'en' });
    expect(page.html).toMatch(/<html lang="fr"/);
  });

  it('sends the security headers on every page', async () => {
    const page = await loginPage();
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe/);
    expect(page.headers['cache-control']).toContain('no-store');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.html).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
  });

  it('answers a wrong password in the page language, without saying whether the e-mail exists', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    const rp = await relyingParty(svc.url, client);
    const page = (await browser.open((await rp.start()).url)) as Page;
    const wrong = (await browser.submit(page, /\/login$/, { email: user.email, password: 'not the password' })) as Page;
    const unknown = (await browser.submit(page, /\/login$/, { email: 'nobody@example.org', password: 'not the password' })) as Page;
    expect(wrong.status).toBe(unknown.status);
    expect(wrong.html).toContain('Adresse e\u2011mail ou mot de passe incorrect');
    const message = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
    expect(message(wrong.html)).toBe(message(unknown.html));
  });
});

describe('error pages', () => {
  it('shows a localized page, never a redirect, for an unknown client', async () => {
    const res = await fetch(
      `${svc.url}/oauth/authorize?response_type=code&client_id=unknown&redirect_uri=https://evil.example/cb&scope=openid&state=s`,
      {
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toMatch(/<html lang="fr"/);
    expect(html).toContain('Application inconnue');
    expect(html).not.toMatch(/at .*\.js:\d+/);
  });

  it('shows a localized page, never a redirect, for an unregistered redirect_uri', async () => {
    const res = await fetch(
      `${svc.url}/oauth/authorize?response_type=code&client_id=${client.clientId}&redirect_uri=https://evil.example/cb&scope=openid&state=s&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&ui_locales=en`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toMatch(/<html lang="en"/);
    expect(html).not.toContain('evil.example/cb?');
  });

  it('shows a friendly page for an expired or unknown interaction', async () => {
    const res = await fetch(`${svc.url}/interaction/does-not-exist`);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Page expirée');
    expect(html).not.toMatch(/SessionNotFound|\.ts:\d+/);
  });
});

// Page budget and accessibility basics of every end-user page, over HTTP: under 30 KB with the
// stylesheet, no script, every field labelled, a language switch, localized titles, security headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { carriesFormSecret } from '../../src/edge/compression.ts';
import { PASSKEY_PAGE_POLICY, SCRIPTED_PAGE_POLICY, SECURITY_HEADERS } from '../../src/pages/security-headers.ts';
import { openSignup } from './journey.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

async function pages(): Promise<Record<string, Page>> {
  const user = await svc.createUser();
  const rp = await relyingParty(svc.url, await svc.createClient());
  const browser = new Browser(svc.url);
  const { login, form } = await openSignup(browser, rp);
  const consent = (await browser.submit(login, /\/login$/, { email: user.email, password: user.password })) as Page;
  const open = async (path: string) => (await new Browser(svc.url).open(path)) as Page;
  const account = await browser.open('/account');
  return {
    login,
    signup: form,
    consent,
    account: account as Page,
    accountLogin: await open('/account'),
    forgot: await open('/password/forgot'),
    invalidLink: await open('/email/verify?token=nope'),
  };
}

describe('end-user pages', () => {
  it('stay under 30 KB with the stylesheet, with no script, every field labelled', async () => {
    const css = await new Browser(svc.url).agent.get('/static/app.css');
    const all = await pages();
    for (const [name, page] of Object.entries(all)) {
      expect(isPage(page), name).toBe(true);
      expect(Buffer.byteLength(page.html) + css.text.length, name).toBeLessThan(30 * 1024);
      // No script but the password fields' "Afficher" button and the login page's passkeys, from our own
      // files, never inline.
      const scripts = [...page.html.matchAll(/<script[^>]*>/gi)].map((m) => m[0]);
      for (const script of scripts) {
        expect(script, name).toMatch(/^<script src="\/static\/(show-password|passkeys)\.js\?v=[\w-]+" defer>$/);
      }
      expect(page.html, name).not.toMatch(/\son\w+=/i);
      const ids = [...page.html.matchAll(/<input[^>]*\sid="([^"]+)"/g)].map((m) => m[1]);
      for (const id of ids) expect(page.html, `${name}: label for ${id}`).toContain(`<label for="${id}"`);
      expect(page.html, name).toMatch(/href="\/lang\/en\?return=/);
      expect(page.html, name).toMatch(/<title>[^<]+ · Service de connexion<\/title>/);
      // The passkey script fetches its challenge from the page's own origin (connect-src 'self'), nothing more.
      const passkeys = scripts.some((script) => script.includes('/static/passkeys.js'));
      const policy = passkeys ? PASSKEY_PAGE_POLICY : scripts.length ? SCRIPTED_PAGE_POLICY : SECURITY_HEADERS['Content-Security-Policy'];
      // A page carrying a form secret is also marked for proxies never to compress it (BREACH, compression.ts).
      const cacheControl = `${SECURITY_HEADERS['Cache-Control']}${carriesFormSecret(page.html) ? ', no-transform' : ''}`;
      for (const [header, value] of Object.entries({
        ...SECURITY_HEADERS,
        'Content-Security-Policy': policy,
        'Cache-Control': cacheControl,
      }))
        expect(page.headers[header.toLowerCase()], `${name} ${header}`).toBe(value);
    }
  });

  it('sets the language cookie from the switch and returns to the same page, never to another site', async () => {
    const browser = new Browser(svc.url);
    const res = await browser.agent.get('/lang/en?return=%2Fpassword%2Fforgot').redirects(0);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/password/forgot');
    expect(String(res.headers['set-cookie'])).toMatch(/lang=en;.*samesite=lax;.*httponly/i);
    const page = (await browser.open('/password/forgot')) as Page;
    expect(page.html).toContain('<html lang="en">');
    for (const evil of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
      const r = await browser.agent.get(`/lang/fr?return=${encodeURIComponent(evil)}`).redirects(0);
      expect(r.headers.location, evil).toBe('/account');
    }
  });

  it('lets the language switch win over ui_locales on sign-in pages', async () => {
    const rp = await relyingParty(svc.url, await svc.createClient());
    const browser = new Browser(svc.url);
    await browser.agent.get('/lang/en?return=%2Faccount').redirects(0);
    const login = (await browser.open((await rp.start({ ui_locales: 'fr' })).url)) as Page;
    expect(login.html).toContain('<html lang="en">');
  });
});

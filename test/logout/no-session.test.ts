// A sign-out from a browser with no session (an application's "sign out" after the session expired, a
// second tab): the service's own page in French or English, with no script at all (the engine's own page
// submits itself with an inline script), whose button sends the engine's form on to the application or
// to the "signed out" page. The other logout pages are the service's too, without script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/pages/security-headers.ts';
import { Browser, formActions, isPage, type Page } from '../support/browser.ts';
import { signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';

let svc: TestService;
let client: TestClient;
beforeAll(async () => {
  svc = await startTestService();
  client = await svc.createClient({ name: 'Marché de Cocody' });
});
afterAll(() => svc.stop());

function hiddenFields(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** The page is the service's: its layout and stylesheet, the page policy, and no script of any kind. */
function expectServicePage(page: Page, lang: 'fr' | 'en') {
  expect(page.status).toBe(200);
  expect(page.html).toContain(`<html lang="${lang}">`);
  expect(page.html).toMatch(/<link rel="stylesheet" href="\/static\/app\.css\?v=/);
  // No inline script (nor any other): the policy allows none, and the engine's page would need one.
  expect(page.html).not.toMatch(/<script/i);
  expect(page.html).not.toMatch(/\son\w+=/i);
  expect(page.html).not.toContain('Submitting Callback');
  expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(page.headers['content-security-policy']).not.toContain('script-src');
}

describe('sign-out without a session', () => {
  it('shows the service’s page in French, whose button signs out and returns to the "signed out" page', async () => {
    const browser = new Browser(svc.url, { 'Accept-Language': 'fr' });
    const page = (await browser.open('/oauth/logout')) as Page;
    expectServicePage(page, 'fr');
    expect(page.html).toContain('Aucune session ouverte');
    expect(page.html).toMatch(/<button type="submit" class="button primary" autofocus>Continuer<\/button>/);
    expect(formActions(page.html)).toEqual([`${svc.url}/oauth/logout/confirm`]);

    const done = await browser.submit(page, /\/oauth\/logout\/confirm$/, hiddenFields(page.html));
    expect(isPage(done)).toBe(true);
    const signedOut = done as Page;
    expectServicePage(signedOut, 'fr');
    expect(signedOut.html).toContain('Déconnexion réussie');
    expect(signedOut.html).toContain('href="/account"');
  });

  it('shows it in English for ui_locales=en, and leads back to the application with its state', async () => {
    const browser = new Browser(svc.url, { 'Accept-Language': 'fr' });
    const query = new URLSearchParams({
      client_id: client.clientId,
      post_logout_redirect_uri: client.redirectUri,
      state: 'au-revoir',
      ui_locales: 'en',
    });
    const page = (await browser.open(`/oauth/logout?${query}`)) as Page;
    expectServicePage(page, 'en');
    expect(page.html).toContain('No session open');
    expect(page.html).toContain('Back to Marché de Cocody');

    const back = await browser.submit(page, /\/oauth\/logout\/confirm$/, hiddenFields(page.html));
    expect(back).toBeInstanceOf(URL);
    expect(`${(back as URL).origin}${(back as URL).pathname}`).toBe(client.redirectUri);
    expect((back as URL).searchParams.get('state')).toBe('au-revoir');
  });

  it('answers a POST (the edge takes GET only) with the service’s page too, with a way on and no script', async () => {
    const res = await new Browser(svc.url).agent
      .post('/oauth/logout')
      .set({ 'Accept-Language': 'en', Accept: 'text/html' })
      .type('form')
      .send('state=x')
      .redirects(0);
    expect(res.status).toBe(405);
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).toMatch(/<a class="button primary" href="\/account">/);
  });

  it('refuses the button’s form from another browser: the anti-forgery value is the engine’s own', async () => {
    const page = (await new Browser(svc.url).open('/oauth/logout')) as Page;
    const other = new Browser(svc.url, { 'Accept-Language': 'fr', Accept: 'text/html' });
    const res = await other.agent
      .post('/oauth/logout/confirm')
      .set({ 'Accept-Language': 'fr', Accept: 'text/html' })
      .type('form')
      .send(new URLSearchParams(hiddenFields(page.html)).toString())
      .redirects(0);
    expect(res.status).toBe(400);
    expect(res.text).toContain('<html lang="fr">');
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).toMatch(/<a class="button primary" href="\/account">Mon compte<\/a>/);
  });

  it('leaves the confirmation of a signed-in user as it was: the question, two buttons, no script', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, client);
    const { browser } = await signIn(svc.url, rp, user);
    const page = (await browser.open('/oauth/logout?ui_locales=fr')) as Page;
    expectServicePage(page, 'fr');
    expect(page.html).toContain('Voulez-vous vous déconnecter');
    expect(page.html).not.toContain('Aucune session ouverte');
  });
});

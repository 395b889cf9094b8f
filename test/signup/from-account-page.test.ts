// Sign-up from the account page: its sign-in form links to "Créer un compte", which opens the sign-up form
// of an authorization of the page's own client (`screen_hint=signup`); once the new account signs in, the
// browser is back on its account page, signed in. An application can ask for the same first page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import type { RelyingParty } from '../support/relying-party.ts';
import type { TestService } from '../support/service.ts';
import { startMailingService, type MailingService } from '../email/mailing-service.ts';
import { hrefs, newUser, submitSignup } from './journey.ts';

let service: MailingService;
let svc: TestService;
let rp: RelyingParty;
beforeAll(async () => {
  service = await startMailingService({ name: 'Marché de Cocody' });
  ({ svc, rp } = service);
});
afterAll(() => service.stop());

async function page(browser: Browser, url: string): Promise<Page> {
  const opened = await browser.open(url);
  if (!isPage(opened)) throw new Error(`${url} left the service: ${opened.href}`);
  return opened;
}

describe('sign-up from the account page', () => {
  it('is linked from its sign-in form and ends on the new account’s page, signed in', async () => {
    const browser = new Browser(svc.url);
    const login = await page(browser, '/account');
    expect(login.html).toContain('Pas encore de compte\u202f?');
    expect(hrefs(login.html)).toContain('/account/signup');

    const form = await page(browser, '/account/signup');
    expect(form.url).toMatch(/\/interaction\/[^/]+\/signup$/);
    expect(form.html).toContain('Créer un compte');

    const user = newUser();
    const done = await submitSignup(browser, form, user);
    expect(done.html).toContain('Vérifiez votre adresse e\u2011mail');
    const signedIn = await browser.submit(done, /\/login$/, { email: user.email, password: user.password });
    expect(isPage(signedIn) && signedIn.url).toMatch(/\/account$/);
    expect(isPage(signedIn) && signedIn.html).toContain(`Connecté avec ${user.email}`);
    // The page's own client is the service's: no consent was asked, and it is not listed as an application.
    expect(isPage(signedIn) && signedIn.html).toContain('Vous n’avez partagé vos informations avec aucune application.');
  });

  it('keeps the way back to the sign-in form, which does not send the browser to sign-up again', async () => {
    const browser = new Browser(svc.url);
    const form = await page(browser, '/account/signup');
    const back = hrefs(form.html).find((h) => /\/interaction\/[^/]+\?login$/.test(h));
    expect(back).toBeDefined();
    const login = await page(browser, back!);
    expect(login.html).toContain('id="password"');
    expect(login.html).toMatch(/action="\/interaction\/[^/"]+\/login"/);
  });

  it('opens on the sign-up form for an application that asks with screen_hint=signup, and only then', async () => {
    const asked = await rp.start({ screen_hint: 'signup' });
    const form = await page(new Browser(svc.url), asked.url);
    expect(form.url).toMatch(/\/interaction\/[^/]+\/signup$/);
    const plain = await rp.start({ screen_hint: 'something-else' });
    const login = await page(new Browser(svc.url), plain.url);
    expect(login.url).toMatch(/\/interaction\/[^/]+$/);
    expect(login.html).toContain('id="password"');
  });
});

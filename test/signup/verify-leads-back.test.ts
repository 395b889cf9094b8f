// The verification link of a sign-up made inside an authorization names the application the user was
// signing up to, and once the address is verified leads back to that sign-in (/interaction/<uid>), which
// the same browser resumes. A link issued without one (re-sent, or from before) keeps its pages as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailTokenStore } from '../../src/accounts/email-tokens.ts';
import { Browser, isPage, type Page } from '../support/browser.ts';
import type { RelyingParty } from '../support/relying-party.ts';
import type { TestService } from '../support/service.ts';
import { startMailingService, type MailingService } from '../email/mailing-service.ts';
import type { SmtpSink } from '../email/smtp-sink.ts';
import { hrefs, newUser, openSignup, submitSignup } from './journey.ts';

const APP = 'Marché de Treichville';

let service: MailingService;
let svc: TestService;
let smtp: SmtpSink;
let rp: RelyingParty;
let tokens: EmailTokenStore;
beforeAll(async () => {
  service = await startMailingService({ name: APP });
  ({ svc, smtp, rp } = service);
  tokens = new EmailTokenStore(svc.service.context.db);
});
afterAll(() => service.stop());

/** Presses the confirm button of a verification link's page. */
async function confirm(browser: Browser, page: Page): Promise<Page> {
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)![1];
  const token = /name="token" value="([^"]+)"/.exec(page.html)![1];
  const done = await browser.submit(page, /\/email\/verify$/, { csrf, token });
  if (!isPage(done)) throw new Error('the confirm button redirected away');
  return done;
}

describe('the verification link of a sign-up inside an authorization', () => {
  it('names the application, then leads back to the sign-in it came from, which the same browser resumes', async () => {
    const browser = new Browser(svc.url, { 'Accept-Language': 'fr' });
    const user = newUser();
    const { form } = await openSignup(browser, rp);
    const uid = /\/interaction\/([^/]+)\/signup/.exec(form.url)![1];
    await submitSignup(browser, form, user);
    const mail = await smtp.next(user.email);

    const page = (await browser.open(mail.link)) as Page;
    expect(page.status).toBe(200);
    expect(page.html).toContain(`Vous vous inscriviez sur ${APP}.`);
    const english = (await new Browser(svc.url, { 'Accept-Language': 'en' }).open(mail.link)) as Page;
    expect(english.html).toContain(`You were signing up to ${APP}.`);

    const verified = await confirm(browser, page);
    expect(verified.status).toBe(200);
    expect((await svc.service.context.accounts.findByEmail(user.email))?.emailVerified).toBe(true);
    expect(verified.html).toContain(`Vous vous inscriviez sur ${APP}.`);
    const back = new RegExp(`<a class="button primary" href="([^"]+)">Continuer vers ${APP}</a>`).exec(verified.html);
    expect(back?.[1]).toBe(`/interaction/${uid}`);
    // To the service's own page, never to the application's redirect URI.
    expect(hrefs(verified.html).some((h) => h.startsWith(rp.client.redirectUri))).toBe(false);

    // The same browser (its interaction cookie) is back at the sign-in of that authorization.
    const resumed = await browser.open(new URL(back![1], svc.url).href);
    expect(isPage(resumed)).toBe(true);
    expect((resumed as Page).status).toBe(200);
    expect((resumed as Page).html).toContain(`action="/interaction/${uid}/login"`);
    // Another browser (the link opened on a phone) has no such sign-in: the service's page, with its ways on.
    const elsewhere = (await new Browser(svc.url, { 'Accept-Language': 'fr' }).open(new URL(back![1], svc.url).href)) as Page;
    expect(elsewhere.html).toContain('Page expirée');
    expect(hrefs(elsewhere.html).length).toBeGreaterThan(0);
  });

  it('shows no application and no such link for a link issued without one, or for an application since removed', async () => {
    for (const origin of [undefined, { clientId: 'plus-enregistree', interactionUid: 'abc' }]) {
      const user = await svc.createUser({ emailVerified: false });
      const token = await tokens.issue(user.id, 'verify-email', 3600, undefined, origin);
      const browser = new Browser(svc.url, { 'Accept-Language': 'fr' });
      const page = (await browser.open(`/email/verify?token=${token}`)) as Page;
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('Vous vous inscriviez');
      const verified = await confirm(browser, page);
      expect(verified.status).toBe(200);
      expect(verified.html).toContain('Vous pouvez revenir à l’application.');
      expect(verified.html).not.toContain('Continuer vers');
      expect(hrefs(verified.html).filter((h) => h.includes('/interaction/'))).toEqual([]);
      expect(hrefs(verified.html)).toContain('/account');
    }
  });
});

// Sign-up from the login page, inside an authorization: NIST password rules, an unverified account,
// and the same interaction continuing to the application.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage } from '../support/browser.ts';
import { userinfo } from '../support/flow.ts';
import type { RelyingParty } from '../support/relying-party.ts';
import type { TestService } from '../support/service.ts';
import { startMailingService, type MailingService } from '../email/mailing-service.ts';
import type { SmtpSink } from '../email/smtp-sink.ts';
import { continueToApp, hrefs, newUser, openSignup, submitSignup } from './journey.ts';

let service: MailingService;
let svc: TestService;
let smtp: SmtpSink;
let rp: RelyingParty;
beforeAll(async () => {
  service = await startMailingService({ name: 'Marché de Cocody' });
  ({ svc, smtp, rp } = service);
});
afterAll(() => service.stop());

describe('sign-up', () => {
  it('is linked from the login page, with the forgotten-password link', async () => {
    const browser = new Browser(svc.url);
    const { login, form } = await openSignup(browser, rp);
    expect(hrefs(login.html).some((h) => h.startsWith('/password/forgot?return=%2Finteraction%2F'))).toBe(true);
    expect(form.status).toBe(200);
    expect(form.html).toContain('Créer un compte');
    for (const name of ['email', 'username', 'first_name', 'password']) expect(form.html).toMatch(new RegExp(`<label for="${name}"`));
    expect(form.html).toContain('autocomplete="new-password"');
  });

  it('creates an unverified account and continues the same authorization to the application', async () => {
    const browser = new Browser(svc.url);
    const user = newUser();
    const { start, form } = await openSignup(browser, rp);
    const uid = form.url.match(/\/interaction\/([^/]+)\/signup/)![1];
    const done = await submitSignup(browser, form, user);
    expect(done.status).toBe(200);
    expect(done.html).toContain('Vérifiez votre adresse e\u2011mail');
    expect(done.html).toContain(user.email);
    // The interaction uid is kept: the sign-in form on the page continues this very authorization.
    expect(done.html).toContain(`action="/interaction/${uid}/login"`);

    const account = await svc.service.context.accounts.findByEmail(user.email);
    expect(account?.emailVerified).toBe(false);

    const { callback, consent } = await continueToApp(browser, done, user);
    expect(consent.html).toContain('Marché de Cocody');
    const tokens = await rp.redeem(callback, start);
    const claims = (await userinfo(svc.url, tokens.access_token)).json;
    expect(claims.email).toBe(user.email);
    expect(claims.email_verified).toBe(false);
    expect(claims.username).toBe(user.username);
  });

  it('signs nobody in by itself: resuming the authorization after a sign-up still asks to sign in', async () => {
    // Else the step after the page would tell a new address (consent) from a registered one (sign-in).
    const browser = new Browser(svc.url);
    const { form } = await openSignup(browser, rp);
    const uid = form.url.match(/\/interaction\/([^/]+)\/signup/)![1];
    await submitSignup(browser, form, newUser());
    const resumed = await browser.open(`${svc.url}/oauth/authorize/${uid}`);
    expect(isPage(resumed) && resumed.html).toContain('id="password"');
    expect(isPage(resumed) && resumed.html).toMatch(/action="\/interaction\/[^/"]+\/login"/);
  });

  it('refuses short, common and personal passwords, with the reason, in the page language', async () => {
    const cases: Array<[string, string]> = [
      ['court', 'Ce mot de passe est trop court'],
      ['azerty123', 'trop courant'],
      ['Password1', 'trop courant'],
      ['motdepasse', 'trop courant'],
      ['x'.repeat(257), '256 caractères'],
    ];
    const browser = new Browser(svc.url);
    const { form } = await openSignup(browser, rp);
    for (const [password, message] of cases) {
      const page = await submitSignup(browser, form, newUser({ password }));
      expect(page.status, password).toBe(400);
      expect(page.html, password).toContain(message);
      expect(page.html).toContain('aria-invalid="true"');
      // A refused password is never sent back into the page.
      expect(page.html).not.toContain(`value="${password}"`);
    }
    const user = newUser();
    const personal = await submitSignup(browser, form, { ...user, password: `${user.username}` });
    expect(personal.html).toContain('ne doit pas reprendre');

    const english = new Browser(svc.url);
    const en = await openSignup(english, rp, { ui_locales: 'en' });
    const refused = await submitSignup(english, en.form, newUser({ password: 'iloveyou' }));
    expect(refused.html).toContain('This password is too common');
  });

  it('has no composition rules: a long lowercase passphrase with spaces and accents is accepted', async () => {
    const browser = new Browser(svc.url);
    const { form } = await openSignup(browser, rp);
    const passphrase = 'le soleil se lève sur la lagune ébrié et les pirogues rentrent au port '.repeat(3).trim();
    expect([...passphrase].length).toBeGreaterThan(200);
    const done = await submitSignup(browser, form, newUser({ password: passphrase }));
    expect(done.status).toBe(200);
    expect(done.html).toContain('Vérifiez votre adresse e\u2011mail');
  });

  it('answers a registered address with the same page as a new one, and tells the address owner by e-mail', async () => {
    const existing = await svc.createUser();
    const pageFor = async (email: string) => {
      const browser = new Browser(svc.url);
      const { form } = await openSignup(browser, rp);
      const done = await submitSignup(
        browser,
        form,
        newUser({ email, username: `nom_${Date.now()}${Math.random().toString(36).slice(2, 6)}` }),
      );
      // The same page but for the address typed and the interaction's own uid.
      return {
        status: done.status,
        html: done.html.replaceAll(email, '<email>').replace(/(\/|%2F)(interaction|authorize)(\/|%2F)[\w-]+/g, '$1$2$3<uid>'),
      };
    };
    const fresh = await pageFor(newUser().email);
    const taken = await pageFor(existing.email.toUpperCase());
    expect(taken.status).toBe(200);
    expect(taken).toEqual(fresh);
    expect(taken.html).not.toContain('existe déjà');

    // The owner learns of it, with a way to sign in and one to choose a new password; no second account.
    const notice = await smtp.next(existing.email);
    expect(notice.subject).toBe('Tentative de création de compte avec votre adresse');
    expect(notice.text).toContain(`${svc.url}/account`);
    expect(notice.text).toContain(`${svc.url}/password/forgot`);
    const { rows } = await svc.service.context.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM accounts WHERE lower(email) = lower($1)',
      [existing.email],
    );
    expect(Number(rows[0].n)).toBe(1);
  });

  it('says when the username is taken or looks like a taken one, keeping the other fields', async () => {
    const existing = await svc.createUser({ username: `lina_${Date.now()}` });
    const browser = new Browser(svc.url);
    const { form } = await openSignup(browser, rp);
    // A username is a public handle: telling it is taken reveals nothing, even with a registered address.
    const sameName = await submitSignup(
      browser,
      form,
      newUser({ email: existing.email, username: existing.username.toUpperCase(), firstName: 'Koffi' }),
    );
    expect(sameName.status).toBe(400);
    expect(sameName.html).toContain('Ce nom d’utilisateur est déjà pris');
    expect(sameName.html).toContain('value="Koffi"');
    const lookalike = await submitSignup(browser, form, newUser({ username: `I${existing.username.slice(1)}` }));
    expect(lookalike.status).toBe(400);
    expect(lookalike.html).toContain('Ce nom d’utilisateur ressemble trop à un nom déjà pris');
    const mixed = await submitSignup(browser, form, newUser({ username: 'аlice_mix' }));
    expect(mixed.status).toBe(400);
    expect(mixed.html).toContain('dans un seul alphabet');
  });

  it('checks every field', async () => {
    const browser = new Browser(svc.url);
    const { form } = await openSignup(browser, rp);
    const page = await submitSignup(browser, form, {
      email: 'pas-une-adresse',
      username: 'a',
      firstName: '',
      password: 'une phrase tout à fait correcte',
    });
    expect(page.status).toBe(400);
    expect(page.html).toContain('Cette adresse e\u2011mail est incomplète ou mal écrite');
    expect(page.html).toContain('Ce nom d’utilisateur est trop court');
    expect(page.html).toContain('Saisissez votre prénom');
  });

  it('is only offered while the interaction waits for a login', async () => {
    const browser = new Browser(svc.url);
    const user = newUser();
    const { form } = await openSignup(browser, rp);
    await submitSignup(browser, form, user);
    const again = await browser.open(form.url);
    expect(isPage(again) && again.status).toBe(200);
  });
});

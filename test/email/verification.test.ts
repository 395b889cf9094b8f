// E-mail verification through a real SMTP server on loopback: the message is received, its link is
// opened and its confirm button pressed, and userinfo then reports email_verified: true. Opening the
// link alone (as a mail scanner does) verifies nothing. The link is single-use, expires, and only its
// hash is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { userinfo } from '../support/flow.ts';
import type { RelyingParty } from '../support/relying-party.ts';
import type { TestService } from '../support/service.ts';
import { continueToApp, newUser, openSignup, submitSignup } from '../signup/journey.ts';
import { startMailingService, type MailingService } from './mailing-service.ts';
import type { SmtpSink } from './smtp-sink.ts';

let service: MailingService;
let svc: TestService;
let smtp: SmtpSink;
let rp: RelyingParty;
beforeAll(async () => {
  service = await startMailingService();
  ({ svc, smtp, rp } = service);
});
afterAll(() => service.stop());

/** Opens the link, as a person would, and presses its confirm button. */
async function confirm(link: string, browser = new Browser(svc.url)): Promise<Page> {
  const page = await browser.open(link);
  if (!isPage(page) || page.status !== 200) return page as Page;
  const csrf = page.html.match(/name="csrf" value="([^"]+)"/)![1];
  const token = page.html.match(/name="token" value="([^"]+)"/)![1];
  return (await browser.submit(page, /\/email\/verify$/, { csrf, token })) as Page;
}

async function signUp(params: Record<string, string> = {}) {
  const browser = new Browser(svc.url);
  const user = newUser();
  const { start, form } = await openSignup(browser, rp, params);
  const done = await submitSignup(browser, form, user);
  return { browser, user, start, done };
}

describe('e-mail verification', () => {
  it('sends a French message with text and HTML parts and a single link, from the configured sender', async () => {
    const { user } = await signUp();
    const mail = await smtp.next(user.email);
    expect(mail.raw).toMatch(/^From: Service de test <no-reply@example\.org>/m);
    expect(mail.subject).toBe('Confirmez votre adresse e-mail');
    expect(mail.text).toContain('Bonjour Adjoua,');
    expect(mail.link).toMatch(new RegExp(`^${svc.url}/email/verify\\?token=[\\w-]{43}$`));
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain(`href="${mail.link}"`);
    expect(mail.html).toContain('Confirmer mon adresse');
    // Never the password.
    expect(mail.raw).not.toContain(user.password);
  });

  it('writes the message in English for an English sign-up', async () => {
    const { user } = await signUp({ ui_locales: 'en' });
    const mail = await smtp.next(user.email);
    expect(mail.subject).toBe('Confirm your e-mail address');
    expect(mail.text).toContain('Hello Adjoua,');
    expect(mail.html).toContain('<html lang="en">');
  });

  it('only asks for a confirmation when the link is opened: a mail scanner verifies nothing', async () => {
    const { user } = await signUp();
    const mail = await smtp.next(user.email);
    for (let i = 0; i < 2; i += 1) {
      const page = await new Browser(svc.url).open(mail.link);
      expect(isPage(page) && page.status).toBe(200);
      expect(isPage(page) && page.html).toContain('Confirmer mon adresse');
      expect(isPage(page) && page.html).toMatch(/<form method="post" action="\/email\/verify"/);
    }
    expect((await svc.service.context.accounts.findByEmail(user.email))?.emailVerified).toBe(false);
    // The link still works for the owner afterwards.
    expect((await confirm(mail.link)).html).toContain('Adresse e\u2011mail vérifiée');
  });

  it('refuses the confirmation without the anti-forgery token', async () => {
    const { user } = await signUp();
    const mail = await smtp.next(user.email);
    const token = new URL(mail.link).searchParams.get('token')!;
    const res = await new Browser(svc.url).agent.post('/email/verify').type('form').send({ token });
    expect(res.status).toBe(403);
    expect((await svc.service.context.accounts.findByEmail(user.email))?.emailVerified).toBe(false);
  });

  it('sets email_verified when the link is confirmed: userinfo then says true', async () => {
    const { browser, user, start, done } = await signUp();
    const mail = await smtp.next(user.email);

    const verified = await confirm(mail.link);
    expect(verified.status).toBe(200);
    expect(verified.html).toContain('Adresse e\u2011mail vérifiée');
    expect((await svc.service.context.accounts.findByEmail(user.email))?.emailVerified).toBe(true);

    const { callback } = await continueToApp(browser, done, user);
    const tokens = await rp.redeem(callback, start);
    expect((await userinfo(svc.url, tokens.access_token)).json.email_verified).toBe(true);
  });

  it('works once only', async () => {
    const { user } = await signUp();
    const mail = await smtp.next(user.email);
    const browser = new Browser(svc.url);
    const page = (await browser.open(mail.link)) as Page;
    const fields = { csrf: page.html.match(/name="csrf" value="([^"]+)"/)![1], token: new URL(mail.link).searchParams.get('token')! };
    expect(((await browser.submit(page, /\/email\/verify$/, fields)) as Page).status).toBe(200);
    // Pressed twice, or opened again: the link is spent.
    const twice = (await browser.submit(page, /\/email\/verify$/, fields)) as Page;
    expect(twice.status).toBe(400);
    expect(twice.html).toContain('Lien non valide');
    const again = await new Browser(svc.url).open(mail.link);
    expect(isPage(again) && again.status).toBe(400);
    expect(isPage(again) && again.html).toContain('Lien non valide');
  });

  it('expires', async () => {
    const { user } = await signUp();
    const mail = await smtp.next(user.email);
    const browser = new Browser(svc.url);
    const page = (await browser.open(mail.link)) as Page;
    await svc.service.context.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 second'`);
    const fields = { csrf: page.html.match(/name="csrf" value="([^"]+)"/)![1], token: new URL(mail.link).searchParams.get('token')! };
    expect(((await browser.submit(page, /\/email\/verify$/, fields)) as Page).status).toBe(400);
    const late = await new Browser(svc.url).open(mail.link);
    expect(isPage(late) && late.status).toBe(400);
    expect((await svc.service.context.accounts.findByEmail(user.email))?.emailVerified).toBe(false);
  });

  it('stores only a hash of the token', async () => {
    const { user } = await signUp();
    const mail = await smtp.next(user.email);
    const token = new URL(mail.link).searchParams.get('token')!;
    const rows = await svc.service.context.db.query('SELECT * FROM email_tokens');
    expect(JSON.stringify(rows.rows)).not.toContain(token);
    expect(rows.rows.some((r) => /^[0-9a-f]{64}$/.test(String(r.token_hash)))).toBe(true);
  });

  it('refuses a forged or missing token', async () => {
    for (const link of ['/email/verify?token=' + 'A'.repeat(43), '/email/verify']) {
      const page = await new Browser(svc.url).open(link);
      expect(isPage(page) && page.status).toBe(400);
    }
  });
});

// Password reset by e-mail link: the same answer whether or not the address is registered (in the same
// time too), a single-use link, the new password's rules, and every session and grant ended afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { refreshGrant, signIn } from '../support/flow.ts';
import type { RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startMailingService, type MailingService } from './mailing-service.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

let service: MailingService;
let svc: TestService;
let smtp: SmtpSink;
let rp: RelyingParty;
beforeAll(async () => {
  service = await startMailingService();
  ({ svc, smtp, rp } = service);
});
afterAll(() => service.stop());

const csrfOf = (page: Page) => page.html.match(/name="csrf" value="([^"]+)"/)![1];

async function askReset(browser: Browser, email: string): Promise<Page> {
  const form = (await browser.open('/password/forgot')) as Page;
  return (await browser.submit(form, /\/password\/forgot$/, { csrf: csrfOf(form), email, return: '/account' })) as Page;
}

describe('password reset', () => {
  it('answers the same whether or not the address is registered, and mails only a registered one', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    const known = await askReset(browser, user.email);
    const unknown = await askReset(browser, 'personne@example.org');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.html.replace('personne@example.org', 'X')).toBe(known.html.replace(user.email, 'X'));
    expect(known.html).toContain('Si un compte existe pour');
    const mail = await smtp.next(user.email);
    expect(mail.subject).toBe('Choisissez un nouveau mot de passe');
    expect(mail.link).toMatch(/\/password\/reset\?token=[\w-]{43}$/);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.some((m) => m.to.includes('personne@example.org'))).toBe(false);
  });

  it('refuses a form posted without its anti-forgery token', async () => {
    const browser = new Browser(svc.url);
    const res = await browser.agent.post('/password/forgot').type('form').send({ email: 'a@example.org' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Formulaire expiré');
  });

  it('sets a new password from the link, once, under the password rules, and ends the sessions', async () => {
    const user = await svc.createUser();
    const appBrowser = new Browser(svc.url);
    await signIn(svc.url, rp, user, { browser: appBrowser });
    const browser = new Browser(svc.url);
    await askReset(browser, user.email);
    const mail = await smtp.next(user.email);

    const form = (await browser.open(mail.link)) as Page;
    expect(form.status).toBe(200);
    const csrf = form.html.match(/name="csrf" value="([^"]+)"/)![1];
    const token = new URL(mail.link).searchParams.get('token')!;
    const weak = (await browser.submit(form, /\/password\/reset$/, { csrf, token, password: 'azerty123' })) as Page;
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('trop courant');

    const done = (await browser.submit(form, /\/password\/reset$/, { csrf, token, password: 'une nouvelle phrase secrète' })) as Page;
    expect(done.status).toBe(200);
    expect(done.html).toContain('Mot de passe modifié');
    expect(await svc.service.context.accounts.authenticate(user.email, user.password)).toBeUndefined();
    expect(await svc.service.context.accounts.authenticate(user.email, 'une nouvelle phrase secrète')).toBeDefined();

    const reused = (await browser.submit(form, /\/password\/reset$/, { csrf, token, password: 'encore une autre phrase' })) as Page;
    expect(reused.status).toBe(400);
    expect(await browser.open(mail.link)).toMatchObject({ status: 400 });

    // The session opened before the reset is gone: the application's next authorization asks for a login.
    const again = await appBrowser.open((await rp.start()).url);
    expect(isPage(again) && again.html).toContain('name="password"');
  });

  it("ends the applications' grants: a refresh token issued before the reset fails after it", async () => {
    const user = await svc.createUser();
    const { tokens } = await signIn(svc.url, rp, user);
    expect(tokens.refresh_token).toBeTruthy();
    const browser = new Browser(svc.url);
    await askReset(browser, user.email);
    const mail = await smtp.next(user.email);
    const form = (await browser.open(mail.link)) as Page;
    const token = new URL(mail.link).searchParams.get('token')!;
    const done = (await browser.submit(form, /\/password\/reset$/, {
      csrf: csrfOf(form),
      token,
      password: 'une nouvelle phrase secrète',
    })) as Page;
    expect(done.html).toContain('Les applications autorisées ont perdu leur accès');

    const refresh = await refreshGrant(svc.url, rp.client, tokens.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');
    expect(await svc.service.context.consents.listForAccount(user.id)).toEqual([]);
  });

  it('limits reset e-mails per account, whatever spelling of the address is typed', async () => {
    const user = await svc.createUser({ email: `alice.${Date.now()}@example.org` });
    // SQL lower() folds İ onto i (JavaScript does not): this spelling reaches the same account.
    const lookalike = user.email.replace('alice', 'al\u0130ce');
    const browser = new Browser(svc.url);
    for (const email of [user.email, lookalike, user.email, lookalike]) expect((await askReset(browser, email)).status).toBe(200);
    for (let i = 0; i < 3; i += 1) await smtp.next(user.email);
    await expect(smtp.next(user.email, 1_000)).rejects.toThrow(/no e-mail/);
  });
});

describe('password reset request', () => {
  it('answers without waiting for the mail server, so a registered address takes no longer than another', async () => {
    const slowSmtp = await startSmtpSink({ holdReplies: true });
    const slow = await startTestService({ mail: slowSmtp.mailConfig() });
    try {
      const user = await slow.createUser();
      // The mail server holds its acceptance back: an answer that waited for the send would never come.
      const held = new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 3_000));
      const known = await Promise.race([askReset(new Browser(slow.url), user.email), held]);
      expect(known).not.toBe('held');
      expect((known as Page).html).toContain('Si un compte existe pour');
      // The message was still sent.
      slowSmtp.release();
      expect((await slowSmtp.next(user.email)).subject).toBe('Choisissez un nouveau mot de passe');
    } finally {
      slowSmtp.release();
      await slow.stop();
      await slowSmtp.stop();
    }
  });
});

// Password reset by e-mail link: the same answer whether or not the address is registered, a
// single-use link, the new password's rules, and every session ended afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { signIn } from '../support/flow.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

let svc: TestService;
let smtp: SmtpSink;
let rp: RelyingParty;
beforeAll(async () => {
  smtp = await startSmtpSink();
  svc = await startTestService({ mail: smtp.mailConfig() });
  rp = await relyingParty(svc.url, await svc.createClient());
});
afterAll(async () => {
  await svc.stop();
  await smtp.stop();
});

async function askReset(browser: Browser, email: string): Promise<Page> {
  const form = (await browser.open('/password/forgot')) as Page;
  const csrf = form.html.match(/name="csrf" value="([^"]+)"/)![1];
  return (await browser.submit(form, /\/password\/forgot$/, { csrf, email, return: '/account' })) as Page;
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
});

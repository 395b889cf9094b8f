// Changing the e-mail address on the account page: the link goes to the NEW address, the account keeps
// (and signs in with) the old one until the link is used; then the new one signs in, verified, the old
// mailbox gets a notice without a link that signs in, and the sessions stay. An address another account
// uses gets the same answer and no e-mail, and one taken before the link is used is not taken over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { startAccountService, type AccountService } from './account-service.ts';
import { accountPage, signInToAccount, submitForm } from './account-browser.ts';

let m: AccountService;
beforeAll(async () => {
  m = await startAccountService();
});
afterAll(() => m.stop());

const EMAIL = /\/account\/email$/;
const SENT = 'Si cette adresse peut être utilisée, un lien de confirmation vient d’y être envoyé.';
let counter = 0;
const freshAddress = () => `nouvelle${(counter += 1)}.${Date.now()}@example.net`;

async function openLink(browser: Browser, link: string): Promise<Page> {
  const page = await browser.open(link);
  if (!isPage(page)) throw new Error('expected a page');
  return page;
}

describe('changing the e-mail address', () => {
  it('sends the link to the new address, and changes nothing until it is used', async () => {
    const user = await m.svc.createUser();
    const accounts = m.svc.service.context.accounts;
    const newEmail = freshAddress();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    const sent = await submitForm(browser, page, EMAIL, { new_email: newEmail, current_password: user.password });
    expect(sent.html).toContain(SENT);
    expect(sent.html).toContain(`Connecté avec ${user.email}`);

    const mail = await m.smtp.next(newEmail);
    expect(mail.subject).toBe('Confirmez votre nouvelle adresse e-mail');
    expect(mail.link).toMatch(/\/account\/email\/confirm\?token=[\w-]{43}$/);
    // Until the link is used, the old address is the account's.
    expect(await accounts.authenticate(user.email, user.password)).toBeDefined();
    expect(await accounts.authenticate(newEmail, user.password)).toBeUndefined();

    // Opening the link (in another browser, signed out) shows a button; only pressing it changes the address.
    const phone = new Browser(m.svc.url);
    const confirm = await openLink(phone, mail.link);
    expect(confirm.html).toContain(newEmail);
    expect(await accounts.authenticate(user.email, user.password)).toBeDefined();
    const done = await submitForm(phone, confirm, /\/account\/email\/confirm$/, { token: new URL(mail.link).searchParams.get('token')! });
    expect(done.html).toContain('Votre adresse e\u2011mail a été modifiée.');

    expect(await accounts.authenticate(user.email, user.password)).toBeUndefined();
    expect(await accounts.authenticate(newEmail, user.password)).toMatchObject({ id: user.id, email: newEmail, emailVerified: true });
    const signedIn = await signInToAccount(new Browser(m.svc.url), { email: newEmail, password: user.password });
    expect(signedIn.html).toContain(`Connecté avec ${newEmail}`);
    // The session that asked for the change is still signed in.
    expect((await accountPage(browser)).html).toContain(`Connecté avec ${newEmail}`);

    const notice = await m.smtp.next(user.email);
    expect(notice.subject).toBe('L’adresse e-mail de votre compte a été modifiée');
    expect(notice.text).toContain(newEmail);
    expect(notice.text).not.toMatch(/token=/);
    expect(notice.html).not.toMatch(/token=/);

    // Logged by the account and the new address's domain; never the address itself nor the link's token.
    expect(m.log.one('email.changed', { account_id: user.id })).toMatchObject({ source: 'account_page', email_domain: 'example.net' });
    const logText = m.log.text.join('');
    expect(logText).not.toContain(newEmail);
    expect(logText).not.toContain(new URL(mail.link).searchParams.get('token')!);

    // The link works once.
    const reused = await openLink(new Browser(m.svc.url), mail.link);
    expect(reused.status).toBe(400);
  });

  it('refuses a wrong password and a malformed address, and sends nothing', async () => {
    const user = await m.svc.createUser();
    const newEmail = freshAddress();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    const wrong = await submitForm(browser, page, EMAIL, { new_email: newEmail, current_password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('Le mot de passe actuel est incorrect.');
    expect(wrong.html).toContain(`value="${newEmail}"`);
    const malformed = await submitForm(browser, page, EMAIL, { new_email: 'pas-une-adresse', current_password: user.password });
    expect(malformed.status).toBe(400);
    expect(malformed.html).toContain('Saisissez une adresse e\u2011mail valide.');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(m.smtp.received.filter((mail) => mail.to.includes(newEmail))).toEqual([]);
  });

  it('answers the same for an address another account uses, and sends no e-mail to it', async () => {
    const user = await m.svc.createUser();
    const other = await m.svc.createUser();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    const taken = await submitForm(browser, page, EMAIL, { new_email: other.email.toUpperCase(), current_password: user.password });
    expect(taken.status).toBe(200);
    expect(taken.html).toContain(SENT);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(m.smtp.received.filter((mail) => mail.to.some((to) => to.toLowerCase() === other.email.toLowerCase()))).toEqual([]);
    expect(await m.svc.service.context.accounts.authenticate(user.email, user.password)).toBeDefined();
  });

  it('does not take an address registered by someone else after the link was sent', async () => {
    const user = await m.svc.createUser();
    const newEmail = freshAddress();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    await submitForm(browser, page, EMAIL, { new_email: newEmail, current_password: user.password });
    const mail = await m.smtp.next(newEmail);
    await m.svc.createUser({ email: newEmail });
    const confirm = await openLink(browser, mail.link);
    const refused = await submitForm(browser, confirm, /\/account\/email\/confirm$/, {
      token: new URL(mail.link).searchParams.get('token')!,
    });
    expect(refused.html).toContain('Cette adresse est déjà celle d’un autre compte\u00a0: votre adresse n’a pas changé.');
    expect(await m.svc.service.context.accounts.authenticate(user.email, user.password)).toBeDefined();
  });
});

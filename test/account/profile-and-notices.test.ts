// The username and first name on the account page, under the sign-up rules (a look-alike of another
// user's name is refused with the sign-up page's words), and the notice mailed after a password change,
// in the user's language and with no link that signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser.ts';
import { startAccountService, type AccountService } from './account-service.ts';
import { accountPage, signInToAccount, submitForm } from './account-browser.ts';

let m: AccountService;
beforeAll(async () => {
  m = await startAccountService();
});
afterAll(() => m.stop());

const PROFILE = /\/account\/profile$/;

describe('changing the username and first name', () => {
  it('saves both, and shows them on the page', async () => {
    const user = await m.svc.createUser();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    expect(page.html).toContain(`value="${user.username}"`);
    const username = `mariam_${Date.now()}`;
    const saved = await submitForm(browser, page, PROFILE, { username, first_name: ' Mariam ' });
    expect(saved.html).toContain('Votre profil a été enregistré.');
    expect(await m.svc.service.context.accounts.findById(user.id)).toMatchObject({ username, firstName: 'Mariam' });
    expect((await accountPage(browser)).html).toContain(`value="${username}"`);
    expect(m.log.one('profile.changed', { account_id: user.id })).toMatchObject({ source: 'account_page' });
  });

  it("refuses a look-alike of another user's name, and a taken one, with the sign-up messages", async () => {
    const stamp = Date.now();
    await m.svc.createUser({ username: `bello_${stamp}` });
    const user = await m.svc.createUser();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    // "be1lo": a digit one for the letter l.
    const lookalike = await submitForm(browser, page, PROFILE, { username: `be1lo_${stamp}`, first_name: user.firstName });
    expect(lookalike.status).toBe(400);
    expect(lookalike.html).toContain('Ce nom d’utilisateur ressemble trop à un nom déjà pris. Choisissez-en un autre.');
    expect(lookalike.html).toContain(`value="be1lo_${stamp}"`);
    const taken = await submitForm(browser, page, PROFILE, { username: `BELLO_${stamp}`, first_name: user.firstName });
    expect(taken.status).toBe(400);
    expect(taken.html).toContain('Ce nom d’utilisateur est déjà pris. Choisissez-en un autre.');
    const empty = await submitForm(browser, page, PROFILE, { username: user.username, first_name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('Saisissez votre prénom (64 caractères au plus).');
    expect(await m.svc.service.context.accounts.findById(user.id)).toMatchObject({ username: user.username, firstName: user.firstName });
  });

  it("keeps one's own name when only its case changes", async () => {
    const user = await m.svc.createUser();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    const saved = await submitForm(browser, page, PROFILE, { username: user.username.toUpperCase(), first_name: user.firstName });
    expect(saved.html).toContain('Votre profil a été enregistré.');
  });
});

describe('the notice after a password change', () => {
  it("goes to the account's address, in the user's language, with no link that signs in", async () => {
    const user = await m.svc.createUser();
    const browser = new Browser(m.svc.url, { 'accept-language': 'en' });
    const page = await signInToAccount(browser, user);
    const changed = await submitForm(browser, page, /\/account\/password$/, {
      current_password: user.password,
      new_password: 'une toute nouvelle phrase',
    });
    expect(changed.html).toContain('Your password was changed.');
    const mail = await m.smtp.next(user.email);
    expect(mail.subject).toBe('Your password has been changed');
    expect(mail.text).toContain('Hello Aïcha,');
    // Its one link leads to the reset page, which asks for the address: nothing in it signs in.
    expect(mail.link).toBe(`${m.svc.url}/password/forgot`);
    expect(mail.text).not.toMatch(/token=/);
    expect(mail.html).not.toMatch(/token=/);
  });
});

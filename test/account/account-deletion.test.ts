// "Supprimer mon compte" and "Télécharger mes données" on the account page: the deletion asks for the
// password and a confirmation, ends every grant and session, erases the account, tells the former
// address and ends on a plain confirmation page; an account that owns portal applications is refused with their names. The download is the
// document `signin user export` prints.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StorageUnavailableError } from '../../adapters/unavailable.ts';
import { exportAccount } from '../../src/users/account-export.ts';
import { Browser } from '../support/browser.ts';
import { refreshGrant, signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startAccountService, type AccountService } from './account-service.ts';
import { accountPage, csrfOf, signInToAccount, submitForm } from './account-browser.ts';

let m: AccountService;
beforeAll(async () => {
  m = await startAccountService();
});
afterAll(() => m.stop());

const DELETE = /\/account\/delete$/;

describe("deleting one's own account", () => {
  it('refuses a wrong password, and a missing confirmation, and keeps the account', async () => {
    const user = await m.svc.createUser();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    const wrong = await submitForm(browser, page, DELETE, { password: 'not the password', confirm: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('Le mot de passe actuel est incorrect.');
    const unconfirmed = await submitForm(browser, page, DELETE, { password: user.password });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.html).toContain('Cochez la case pour confirmer la suppression.');
    expect(await m.svc.service.context.accounts.authenticate(user.email, user.password)).toBeDefined();
    expect((await accountPage(browser)).html).toContain(`Connecté avec ${user.email}`);
  });

  it('with the password: the account is gone, its grants too, and the former address is told', async () => {
    const user = await m.svc.createUser();
    const client = await m.svc.createClient({ name: 'Pharmacie du Plateau' });
    const rp = await relyingParty(m.svc.url, client);
    const browser = new Browser(m.svc.url);
    const { tokens } = await signIn(m.svc.url, rp, user, { browser });
    expect(tokens.refresh_token).toBeTruthy();

    const page = await accountPage(browser);
    const done = await submitForm(browser, page, DELETE, { password: user.password, confirm: 'yes' });
    // A plain confirmation with a way to the service's home, not a sign-in form.
    expect(done.url).toMatch(/\/account\/deleted$/);
    expect(done.html).toContain('<h1>Votre compte a été supprimé</h1>');
    expect(done.html).toContain('Un e\u2011mail de confirmation a été envoyé à votre ancienne adresse.');
    expect(done.html).toMatch(/<a href="\/">Aller à l’accueil du service<\/a>/);
    expect(done.html).not.toMatch(/<form/);
    expect(done.html).not.toContain(user.email);
    // Only the browser that deleted the account sees it: elsewhere the address leads to the account page.
    const elsewhere = await new Browser(m.svc.url).agent.get('/account/deleted').redirects(0);
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.headers.location).toBe('/account');

    // Signing in fails, as for an address never registered.
    const again = await signInToAccount(new Browser(m.svc.url), user);
    expect(again.status).toBe(400);
    expect(again.html).toContain('Adresse e\u2011mail ou mot de passe incorrect.');
    expect(await m.svc.service.context.accounts.findById(user.id)).toBeUndefined();
    // The application's grant ended with the account.
    const refresh = await refreshGrant(m.svc.url, client, tokens.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');

    expect(m.log.one('account.deleted', { account_id: user.id })).toMatchObject({ source: 'account_page', outcome: 'success' });
    const mail = await m.smtp.next(user.email);
    expect(mail.subject).toBe('Votre compte a été supprimé');
    expect(mail.text).toContain('Bonjour Aïcha,');
    expect(mail.text).not.toMatch(/token=/);
  });

  it('refuses while the account owns portal applications, naming them and pointing to the portal', async () => {
    const user = await m.svc.createUser();
    await m.svc.service.context.clients.create({
      name: 'Marché de Treichville',
      description: 'Commandes en ligne',
      appType: 'web',
      redirectUris: ['https://marche.example.org/callback'],
      scopes: ['openid', 'email'],
      ownerId: user.id,
    });
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    const refused = await submitForm(browser, page, DELETE, { password: user.password, confirm: 'yes' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('Marché de Treichville');
    expect(refused.html).toContain('portail développeurs');
    expect(refused.html).toMatch(/href="\/portal\/"/);
    expect(m.log.find('account.deleted', { account_id: user.id })).toEqual([]);
    expect(await m.svc.service.context.accounts.findById(user.id)).toBeDefined();
  });
});

describe("downloading one's data", () => {
  it('answers the export document as an attachment that no cache keeps', async () => {
    const user = await m.svc.createUser();
    const client = await m.svc.createClient({ name: 'Boutique Cocody' });
    const browser = new Browser(m.svc.url);
    await signIn(m.svc.url, await relyingParty(m.svc.url, client), user, { browser, scopes: ['openid', 'email'] });
    const page = await accountPage(browser);
    const file = await submitForm(browser, page, /\/account\/export$/, {});
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/json/);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="account-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(file.headers['cache-control']).toBe('no-store');
    const data = JSON.parse(file.html) as Record<string, unknown>;
    // The very document of `signin user export`, but for the moment it was made.
    const { context } = m.svc.service;
    const expected = await exportAccount(context, user.id, new Date(String(data.exported_at)));
    expect(data).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(data.account).toMatchObject({ email: user.email, username: user.username });
    expect(data.consents).toEqual([expect.objectContaining({ client_id: client.clientId, application: 'Boutique Cocody' })]);
    expect(file.html).not.toMatch(/password|secret|\$argon/i);
    expect(m.log.one('account.exported', { account_id: user.id })).toMatchObject({ source: 'account_page' });
  });

  it('gives nothing without the anti-forgery token, nor when signed out', async () => {
    const user = await m.svc.createUser();
    const browser = new Browser(m.svc.url);
    await signInToAccount(browser, user);
    const forged = await browser.agent
      .post('/account/export')
      .type('form')
      .send({ csrf: 'x'.repeat(43) });
    expect(forged.status).toBe(403);
    // Signed out, with a valid token: back to the sign-in form, and no file.
    const anonymous = new Browser(m.svc.url);
    const form = await accountPage(anonymous);
    const signedOut = await anonymous.agent
      .post('/account/export')
      .type('form')
      .send({ csrf: csrfOf(form) })
      .redirects(0);
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.location).toBe('/account');
    expect(signedOut.headers['content-disposition']).toBeUndefined();
  });
});

describe('a storage outage on the way', () => {
  it('answers the deletion and the download with the localized 503 page, and keeps the account', async () => {
    const user = await m.svc.createUser();
    const browser = new Browser(m.svc.url);
    const page = await signInToAccount(browser, user);
    const { accounts } = m.svc.service.context;
    const outage = () => Promise.reject(new StorageUnavailableError('postgres', new Error('connect ECONNREFUSED')));
    const stubs = [vi.spyOn(accounts, 'setDisabled').mockImplementation(outage), vi.spyOn(accounts, 'details').mockImplementation(outage)];
    try {
      const deletion = await submitForm(browser, page, DELETE, { password: user.password, confirm: 'yes' });
      expect(deletion.status).toBe(503);
      expect(deletion.headers['retry-after']).toBe('5');
      const download = await submitForm(browser, page, /\/account\/export$/, {});
      expect(download.status).toBe(503);
      expect(download.headers['content-disposition']).toBeUndefined();
    } finally {
      stubs.forEach((stub) => stub.mockRestore());
    }
    expect(await accounts.authenticate(user.email, user.password)).toBeDefined();
  });
});

// The account page in a real browser: sign in through an application, see it listed, revoke it, and
// its refresh token fails. Also the signed-out form, the forgotten-password pages and the language switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { refreshGrant } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { catchCallback, launchChromium, PHONE, screenshots } from './chromium.ts';

let svc: TestService;
let smtp: SmtpSink;
let chromium: Browser;
beforeAll(async () => {
  chromium = await launchChromium();
  smtp = await startSmtpSink();
  svc = await startTestService({ mail: smtp.mailConfig() });
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
  await smtp?.stop();
});

describe('account page in a browser', () => {
  it('revokes an application, after which its refresh token fails', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient({ name: 'Banque Solidaire' });
    const rp = await relyingParty(svc.url, client);
    const context = await chromium.newContext({ viewport: PHONE, locale: 'fr-FR' });
    const page = await context.newPage();
    const callback = await catchCallback(page, client.redirectUri);

    const start = await rp.start();
    await page.goto(start.url);
    await page.getByLabel('Adresse e\u2011mail').fill(user.email);
    await page.getByLabel('Mot de passe').fill(user.password);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Autoriser' }).click();
    const tokens = await rp.redeem(await callback(), start);
    expect(tokens.refresh_token).toBeTruthy();

    await page.goto(`${svc.url}/account`);
    await page.getByRole('heading', { name: 'Mon compte', exact: true }).waitFor();
    // The overview names the count; the entry opens on the list.
    await page.locator('summary', { hasText: 'Applications autorisées' }).click();
    expect(await page.locator('.apps').innerText()).toContain('Banque Solidaire');
    await screenshots(page, 'account-01-applications');

    await page.getByRole('button', { name: 'Retirer l’accès de Banque Solidaire' }).click();
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').innerText()).toContain('L’accès de Banque Solidaire a été retiré.');
    expect(await page.locator('main').innerText()).not.toContain('Partagé');
    await screenshots(page, 'account-02-revoked');

    const refresh = await refreshGrant(svc.url, client, tokens.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');

    // Sign out everywhere: back to the account's own sign-in form.
    await page.getByRole('button', { name: 'Se déconnecter partout' }).click();
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').innerText()).toContain('Toutes vos sessions sont fermées');
    await screenshots(page, 'account-03-signed-out');
    await context.close();
  });

  it('switches language with the link on the page and remembers it', async () => {
    const context = await chromium.newContext({ viewport: PHONE, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${svc.url}/account`);
    expect(await page.locator('h1').innerText()).toBe('Mon compte');
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'My account', exact: true }).waitFor();
    expect(page.url()).toBe(`${svc.url}/account`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    const cookie = (await context.cookies()).find((c) => c.name === 'lang');
    expect(cookie).toMatchObject({ value: 'en', httpOnly: true, sameSite: 'Lax' });

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgotten password' }).waitFor();
    await screenshots(page, 'password-01-forgot');
    await page.getByLabel('E\u2011mail address').fill('someone@example.org');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('heading', { name: 'Check your e\u2011mail' }).waitFor();
    await screenshots(page, 'password-02-sent');
    await context.close();
  });

  it('resets a password from the e-mail link, with keyboard only', async () => {
    const user = await svc.createUser();
    const context = await chromium.newContext({ viewport: PHONE, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${svc.url}/password/forgot`);
    // The e-mail field has the focus when the page opens (the browser applies autofocus at its next
    // rendering step, so wait for it rather than type into the page before it lands).
    await page.waitForFunction(() => document.activeElement instanceof HTMLInputElement && document.activeElement.type === 'email');
    await page.keyboard.type(user.email);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Consultez vos e\u2011mails' }).waitFor();
    const mail = await smtp.next(user.email);
    await page.goto(mail.link);
    await page.getByRole('heading', { name: 'Nouveau mot de passe' }).waitFor();
    await screenshots(page, 'password-03-reset');
    await page.keyboard.type('une autre phrase de passe');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Mot de passe modifié' }).waitFor();
    await screenshots(page, 'password-04-done');
    await page.goto(mail.link);
    expect(await page.locator('h1').innerText()).toBe('Lien non valide');
    await screenshots(page, 'error-01-invalid-link');
    await page.goto(`${svc.url}/account`);
    await screenshots(page, 'account-00-sign-in');
    await context.close();
  });
});

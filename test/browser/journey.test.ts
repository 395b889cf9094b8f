// The whole journey in a real browser, in French then in English: sign-up from the login page, the
// verification link from a real SMTP server and its confirm button, continue to the application, partial consent, tokens
// with openid-client, and userinfo reporting email_verified: true. Screenshots of every page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { userinfo } from '../support/flow.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { newUser } from '../signup/journey.ts';
import { catchCallback, launchChromium, PHONE, screenshots } from './chromium.ts';

let svc: TestService;
let smtp: SmtpSink;
let chromium: Browser;
let client: TestClient;
let rp: RelyingParty;
beforeAll(async () => {
  chromium = await launchChromium();
  smtp = await startSmtpSink();
  svc = await startTestService({ mail: smtp.mailConfig() });
  client = await svc.createClient({ name: 'Marché de Cocody', description: 'Vos courses livrées chez vous' });
  rp = await relyingParty(svc.url, client);
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
  await smtp?.stop();
});

async function journey(locale: 'fr' | 'en', copy: Record<string, string | RegExp>) {
  const context = await chromium.newContext({ viewport: PHONE, locale: locale === 'fr' ? 'fr-FR' : 'en-GB' });
  const page: Page = await context.newPage();
  const callback = await catchCallback(page, client.redirectUri);
  const user = newUser({ firstName: locale === 'fr' ? 'Adjoua' : 'Grace' });
  const start = await rp.start();

  await page.goto(start.url);
  expect(await textOf(page.locator('h1'))).toMatch(copy.login);
  await screenshots(page, `${locale}-01-login`);
  await page.getByRole('link', { name: copy.signupLink as string }).click();
  expect(await textOf(page.locator('h1'))).toMatch(copy.signup);
  await page.getByLabel(copy.email as string).fill(user.email);
  await page.getByLabel(copy.username as string).fill(user.username);
  await page.getByLabel(copy.firstName as string).fill(user.firstName);
  await page.getByLabel(copy.password as string, { exact: true }).fill('azerty123');
  await page.getByRole('button', { name: copy.signupSubmit as string }).click();
  expect(await textOf(page.locator('.field-error'))).toMatch(copy.common);
  await screenshots(page, `${locale}-02-signup-error`);
  await page.getByLabel(copy.password as string, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: copy.signupSubmit as string }).click();
  expect(await textOf(page.locator('h1'))).toMatch(copy.checkEmail);
  await screenshots(page, `${locale}-03-check-email`);

  // The link from the e-mail, opened in another tab as a mail app would: it asks for a confirmation,
  // so that a mail scanner opening the link verifies nothing.
  const mail = await smtp.next(user.email);
  expect(mail.subject).toMatch(copy.mailSubject);
  const tab = await context.newPage();
  await tab.goto(mail.link);
  expect(await textOf(tab.locator('h1'))).toMatch(copy.confirmEmail);
  await screenshots(tab, `${locale}-04-confirm-email`);
  await tab.getByRole('button', { name: copy.confirmSubmit as string }).click();
  expect(await textOf(tab.locator('h1'))).toMatch(copy.verified);
  await screenshots(tab, `${locale}-04-email-verified`);
  await tab.close();

  // Back on the first tab, the page's own sign-in form continues, with the password just chosen.
  await page.getByLabel(copy.password as string, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: copy.continue as string }).click();
  expect(await textOf(page.locator('h1'))).toMatch(copy.consent);
  // The consent names the application and shows the user's own data.
  const body = await page.locator('main').innerText();
  expect(body).toContain('Vos courses livrées chez vous');
  expect(body).toContain(user.email);
  expect(body).toContain(user.username);
  expect(body).toMatch(copy.nothingElse);
  await screenshots(page, `${locale}-05-consent`);
  // Partial consent: the profile is not shared. The switch is a native checkbox, reached by keyboard.
  await page.locator('#scope-profile').focus();
  await page.keyboard.press('Space');
  expect(await page.locator('#scope-profile').isChecked()).toBe(false);
  await page.getByRole('button', { name: copy.accept as string }).click();

  const tokens = await rp.redeem(await callback(), start);
  expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);
  const claims = (await userinfo(svc.url, tokens.access_token)).json;
  expect(claims.email).toBe(user.email);
  expect(claims.email_verified).toBe(true);
  expect(claims).not.toHaveProperty('username');
  await context.close();
}

/** The text of the first match, once it is on the page. */
async function textOf(locator: import('playwright-core').Locator): Promise<string> {
  await locator.first().waitFor({ timeout: 10_000 });
  return locator.first().innerText();
}

describe('the end-user journey in a real browser', () => {
  it('in French: sign-up, e-mail link, partial consent, tokens, email_verified true', async () => {
    await journey('fr', {
      login: 'Se connecter',
      signupLink: 'Créer un compte',
      signup: 'Créer un compte',
      email: 'Adresse e\u2011mail',
      username: 'Nom d’utilisateur',
      firstName: 'Prénom',
      password: 'Mot de passe',
      signupSubmit: 'Créer mon compte',
      common: 'trop courant',
      checkEmail: 'Vérifiez votre adresse e\u2011mail',
      mailSubject: /^Confirmez votre adresse e-mail$/,
      confirmEmail: 'Confirmer votre adresse e\u2011mail',
      confirmSubmit: 'Confirmer mon adresse',
      verified: 'Adresse e\u2011mail vérifiée',
      continue: 'Continuer vers Marché de Cocody',
      consent: 'Autoriser Marché de Cocody',
      nothingElse: /Rien d’autre n’est partagé/,
      accept: 'Autoriser',
    });
  });

  it('in English', async () => {
    await journey('en', {
      login: 'Sign in',
      signupLink: 'Create an account',
      signup: 'Create an account',
      email: 'E\u2011mail address',
      username: 'Username',
      firstName: 'First name',
      password: 'Password',
      signupSubmit: 'Create my account',
      common: 'too common',
      checkEmail: 'Check your e\u2011mail address',
      mailSubject: /^Confirm your e-mail address$/,
      confirmEmail: 'Confirm your e\u2011mail address',
      confirmSubmit: 'Confirm my address',
      verified: 'E\u2011mail address verified',
      continue: 'Continue to Marché de Cocody',
      consent: 'Allow Marché de Cocody',
      nothingElse: /Nothing else is shared/,
      accept: 'Allow',
    });
  });
});

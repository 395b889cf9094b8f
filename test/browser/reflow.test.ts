// Every end-user page with the browser's text at 200 % on a 360 px phone (WCAG 1.4.4 and 1.4.10): the
// text grows, nothing scrolls sideways, and no word is cut in the middle (the deployment's name in the
// header, "e‑mail" in a label). The text size is the browser's own setting (its default font size), as
// a user sets it. Screenshots: test-results/screenshots/text200-<page>.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { catchCallback, launchChromium, screenshotWhole } from './chromium.ts';
import { pageWithTextSize, reflowOf } from './page-checks.ts';

const PHONE = { width: 360, height: 640 };

let svc: TestService;
let smtp: SmtpSink;
let chromium: Browser;
let rp: RelyingParty;
let redirectUri: string;
beforeAll(async () => {
  chromium = await launchChromium();
  smtp = await startSmtpSink();
  svc = await startTestService({
    mail: smtp.mailConfig(),
    branding: {
      // A long name, as a public service's often is.
      serviceName: 'Service de connexion de la Communauté d’agglomération',
      links: [
        { label: 'Mentions légales', url: 'https://example.org/mentions' },
        { label: 'Accessibilité\u00a0: partiellement conforme', url: 'https://example.org/a11y' },
        { label: 'Contact', url: 'mailto:contact@example.org' },
      ],
    },
  });
  const client = await svc.createClient({ name: 'Médiathèque intercommunale' });
  redirectUri = client.redirectUri;
  rp = await relyingParty(svc.url, client);
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
  await smtp?.stop();
});

async function phoneAt200(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'fr-FR' });
  return { context, page: await pageWithTextSize(context, 200) };
}

/** The page at 200 %: its text is twice the size, it is no wider than the screen, no word is cut. */
async function checkReflow(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('load');
  const reflow = await reflowOf(page);
  await screenshotWhole(page, `text200-${name}`);
  expect(reflow.fontSize, name).toBe('32px');
  // Soft: one run names every page that fails, not only the first.
  expect.soft(reflow.scrollWidth, `${name} scrolls sideways`).toBeLessThanOrEqual(reflow.clientWidth);
  expect.soft(reflow.brokenWords, `${name}: words cut across lines`).toEqual([]);
}

describe('pages at 200 % text on a 360 px phone', () => {
  it('sign-in, sign-up, consent and the account page reflow', async () => {
    const user = await svc.createUser({ firstName: 'Aminata', emailVerified: false });
    const { context, page } = await phoneAt200();
    const arrived = await catchCallback(page, redirectUri);
    await page.goto((await rp.start()).url);
    await checkReflow(page, 'login');
    // The header: the deployment's name on its own lines, whole words, above the language links.
    const header = await page.evaluate(() => {
      const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
      return { service: box('.service'), langs: box('.langs') };
    });
    expect(header.service.width).toBeGreaterThan(PHONE.width / 2);
    await page.getByRole('link', { name: 'Créer un compte' }).click();
    await page.getByRole('heading', { name: 'Créer un compte' }).waitFor();
    await checkReflow(page, 'signup');
    await page.getByRole('link', { name: 'Se connecter' }).click();
    await page.getByLabel(/^Adresse e.mail$/).fill(user.email);
    await page.getByLabel('Mot de passe').fill(user.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('button', { name: 'Autoriser' }).waitFor();
    await checkReflow(page, 'consent');
    await page.getByRole('button', { name: 'Autoriser' }).click();
    await arrived();

    await page.goto(`${svc.url}/account`);
    await page.getByRole('heading', { name: 'Mon compte', exact: true }).waitFor();
    await checkReflow(page, 'account');
    await context.close();
  });

  it('the password, e-mail, error and logout pages reflow', async () => {
    const user = await svc.createUser();
    const { context, page } = await phoneAt200();
    await page.goto(`${svc.url}/account`);
    await checkReflow(page, 'account-sign-in');
    await page.goto(`${svc.url}/password/forgot`);
    await checkReflow(page, 'forgot');
    await page.getByLabel(/^Adresse e.mail$/).fill(user.email);
    await page.getByRole('button', { name: 'Envoyer le lien' }).click();
    await page.getByRole('heading', { name: /Consultez vos e.mails/ }).waitFor();
    await checkReflow(page, 'forgot-sent');
    const mail = await smtp.next(user.email);
    await page.goto(mail.link);
    await page.getByRole('heading', { name: 'Nouveau mot de passe' }).waitFor();
    await checkReflow(page, 'reset');
    await page.getByLabel('Nouveau mot de passe').fill('une autre phrase de passe');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await page.getByRole('heading', { name: 'Mot de passe modifié' }).waitFor();
    await checkReflow(page, 'reset-done');
    await page.goto(mail.link);
    await page.getByRole('heading', { name: 'Lien non valide' }).waitFor();
    await checkReflow(page, 'error');
    await page.goto(`${svc.url}/email/verify?token=${'x'.repeat(43)}`);
    await checkReflow(page, 'verify-expired');
    await page.goto(`${svc.url}/oauth/logout`);
    await checkReflow(page, 'logout');
    await page.goto(`${svc.url}/oauth/logout/success`);
    await checkReflow(page, 'logged-out');
    await context.close();
  });

  it('the developer portal reflows', async () => {
    const owner = await svc.createUser();
    const { context, page } = await phoneAt200();
    await page.goto(`${svc.url}/portal`);
    await checkReflow(page, 'portal-home');
    await page.getByRole('link', { name: 'Se connecter avec mon compte' }).click();
    await page.fill('#email', owner.email);
    await page.fill('#password', owner.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect.poll(() => page.url()).toBe(`${svc.url}/portal/`);
    await checkReflow(page, 'portal-apps');
    await page.getByRole('link', { name: 'Enregistrer une application' }).first().click();
    await checkReflow(page, 'portal-form');
    await page.fill('#name', 'Réservation de salles');
    await page.fill('#description', 'Réserver une salle municipale pour une association.');
    await page.selectOption('#app_type', 'web');
    await page.fill('#redirect_uris', 'https://salles.example.org/callback');
    await page.getByRole('button', { name: 'Enregistrer l’application' }).click();
    await expect.poll(() => page.url()).toMatch(/\/portal\/apps\/[A-Za-z0-9]{32}$/);
    await checkReflow(page, 'portal-app');
    const app = page.url();
    await page.goto(`${app}/rotate-secret`);
    await checkReflow(page, 'portal-rotate');
    await page.goto(`${app}/delete`);
    await checkReflow(page, 'portal-delete');
    await context.close();
  });
});

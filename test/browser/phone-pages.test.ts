// The sign-in pages on a phone (360×640): every link and button at least 44×44 px (WCAG 2.5.5), nothing
// wider than the screen; the "Afficher" / "Masquer" button of password fields, and the same pages without
// JavaScript; a rate-limited sign-in that names the wait and links to password reset.
// Screenshots: test-results/screenshots/phone-<page>.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { catchCallback, launchChromium, screenshotAt, smallTargets } from './chromium.ts';

const PHONE = { width: 360, height: 640 };

let svc: TestService;
let chromium: Browser;
let rp: RelyingParty;
let redirectUri: string;
beforeAll(async () => {
  chromium = await launchChromium();
  svc = await startTestService({
    rateLimit: { loginPerAccount: { points: 2, windowSeconds: 900 } },
    branding: {
      links: [
        { label: { fr: 'Mentions légales', en: 'Legal notice' }, url: 'https://example.org/mentions' },
        { label: 'Accessibilité', url: 'https://example.org/a11y' },
      ],
    },
  });
  const client = await svc.createClient({ name: 'Marché de Cocody' });
  redirectUri = client.redirectUri;
  rp = await relyingParty(svc.url, client);
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
});

async function phone(options: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'fr-FR', ...options });
  return { context, page: await context.newPage() };
}

/** The page's links and buttons are all 44×44 or more, and it does not scroll sideways; a screenshot. */
async function checkPhonePage(page: Page, name: string): Promise<void> {
  await screenshotAt(page, `phone-${name}`);
  expect(await smallTargets(page), name).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(PHONE.width);
}

describe('sign-in pages on a phone', () => {
  it('give every link and button a 44×44 target, on each page of a sign-in and of the account', async () => {
    const user = await svc.createUser({ emailVerified: false });
    const { context, page } = await phone();
    const arrived = await catchCallback(page, redirectUri);
    await page.goto((await rp.start()).url);
    await checkPhonePage(page, 'login');
    await page.getByRole('link', { name: 'Créer un compte' }).click();
    await page.getByRole('heading', { name: 'Créer un compte' }).waitFor();
    await checkPhonePage(page, 'signup');
    await page.getByRole('link', { name: 'Se connecter' }).click();
    await page.getByLabel('Adresse e\u2011mail').fill(user.email);
    await page.getByLabel('Mot de passe').fill(user.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('button', { name: 'Autoriser' }).waitFor();
    await checkPhonePage(page, 'consent');
    await page.getByRole('button', { name: 'Autoriser' }).click();
    await arrived();

    await page.goto(`${svc.url}/account`);
    await page.getByRole('button', { name: 'Renvoyer le lien' }).waitFor();
    await checkPhonePage(page, 'account');
    await page.goto(`${svc.url}/password/forgot`);
    await checkPhonePage(page, 'forgot');
    await page.goto(`${svc.url}/email/verify?token=${'x'.repeat(43)}`);
    await checkPhonePage(page, 'verify-expired');
    // The deployment's links at the foot of every page.
    expect(await page.locator('.brand-links a').allTextContents()).toEqual(['Mentions légales', 'Accessibilité']);
    await context.close();
  });

  it('shows a typed password with "Afficher", and hides it again with "Masquer"', async () => {
    const { context, page } = await phone();
    await page.goto((await rp.start()).url);
    const field = page.getByLabel('Mot de passe');
    await field.fill('une longue phrase de passe');
    await page.getByRole('button', { name: 'Afficher' }).click();
    expect(await field.getAttribute('type')).toBe('text');
    // The button now says what the next press does; no aria-pressed to contradict its label.
    const hide = page.getByRole('button', { name: 'Masquer' });
    expect(await hide.getAttribute('aria-pressed')).toBeNull();
    expect(await hide.getAttribute('aria-controls')).toBe('password');
    await screenshotAt(page, 'phone-login-password-shown');
    await hide.click();
    expect(await field.getAttribute('type')).toBe('password');
    const reveal = page.getByRole('button', { name: 'Afficher' });
    // Beside its field, as tall as it.
    const [a, b] = [await field.boundingBox(), await reveal.boundingBox()];
    expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
    expect(b!.height).toBeGreaterThanOrEqual(44);
    // A form sent while the password is shown sends it as a password, and the button is back to "Afficher".
    await page.getByRole('button', { name: 'Afficher' }).click();
    await page.evaluate(() => document.querySelector('#password')!.closest('form')!.dispatchEvent(new Event('submit')));
    expect(await field.getAttribute('type')).toBe('password');
    expect(await reveal.isVisible()).toBe(true);
    await context.close();
  });

  it('signs in without JavaScript: no "Afficher" button, the rest as usual', async () => {
    const user = await svc.createUser();
    const { context, page } = await phone({ javaScriptEnabled: false });
    const arrived = await catchCallback(page, redirectUri);
    await page.goto((await rp.start()).url);
    expect(await page.getByRole('button', { name: 'Afficher' }).count()).toBe(0);
    await page.getByLabel('Adresse e\u2011mail').fill(user.email);
    await page.getByLabel('Mot de passe').fill(user.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('button', { name: 'Autoriser' }).click();
    expect((await arrived()).searchParams.get('code')).toBeTruthy();
    await context.close();
  });

  it('names the wait of a rate-limited sign-in and links to password reset', async () => {
    const user = await svc.createUser();
    const { context, page } = await phone();
    await page.goto((await rp.start()).url);
    for (let i = 0; i < 3; i += 1) {
      await page.getByLabel('Mot de passe').fill('pas le bon mot de passe');
      await page.getByLabel('Adresse e\u2011mail').fill(user.email);
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.locator('#login-error').waitFor();
    }
    const alert = page.locator('#login-error');
    expect(await alert.textContent()).toMatch(/Trop de tentatives de connexion\. Réessayez dans 15\sminutes\./);
    const reset = alert.getByRole('link', { name: /Choisir un nouveau mot de passe/ });
    expect(await reset.getAttribute('href')).toMatch(/^\/password\/forgot\?return=%2Finteraction%2F/);
    await checkPhonePage(page, 'login-rate-limited');
    await reset.click();
    await page.getByRole('heading', { name: 'Mot de passe oublié' }).waitFor();
    await context.close();
  });
});

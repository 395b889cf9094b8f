// The account page on a 360×640 phone, as a person on a shared phone uses it: the sign-in form with
// "Rester connecté" unticked, an overview whose every task and both ways to sign out fit the first
// screen, tasks opened one at a time, the list of signed-in devices (two browser contexts: two
// devices), "Se déconnecter" on one leaving the other signed in, ending the other device from the list,
// and the deletion, drawn as destructive, ending on a plain confirmation page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { launchChromium, screenshotAt, smallTargets } from './chromium.ts';

const SCREEN = { width: 360, height: 640 };
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';

let svc: TestService;
let chromium: Browser;
beforeAll(async () => {
  chromium = await launchChromium();
  svc = await startTestService();
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
});

async function deviceWith(userAgent: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.newContext({ viewport: SCREEN, locale: 'fr-FR', userAgent });
  return { context, page: await context.newPage() };
}

async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${svc.url}/account`);
  await page.getByLabel('Adresse e\u2011mail').fill(user.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await page.getByRole('heading', { name: 'Mon compte', exact: true }).waitFor();
  await page.locator('.tasks').waitFor();
}

async function visiblePasswordFields(page: Page): Promise<number> {
  const shown = await Promise.all((await page.locator('input[type="password"]').all()).map((input) => input.isVisible()));
  return shown.filter(Boolean).length;
}

describe('the account page on a phone', () => {
  it('signs in with "Rester connecté" unticked, and shows every task and both sign-outs on the first screen', async () => {
    const user = await svc.createUser();
    const { context, page } = await deviceWith(ANDROID);
    await page.goto(`${svc.url}/account`);
    const remember = page.getByRole('checkbox', { name: 'Rester connecté' });
    expect(await remember.isChecked()).toBe(false);
    await screenshotAt(page, 'account-sign-in');
    await signIn(page, user);

    const entries = page.locator('.task summary');
    expect(await entries.allInnerTexts()).toEqual([
      expect.stringContaining('Mon profil'),
      expect.stringContaining('Adresse e\u2011mail'),
      expect.stringContaining('Mot de passe'),
      expect.stringContaining('Clés d’accès'),
      expect.stringContaining('Appareils connectés'),
      expect.stringContaining('Applications autorisées'),
      expect.stringContaining('Mes données'),
      expect.stringContaining('Supprimer mon compte'),
    ]);
    await screenshotAt(page, 'account-overview');
    // Everything of the overview is on the first screen, without scrolling.
    const bottoms = await page
      .locator('.task summary, .sign-out .button')
      .evaluateAll((els) => els.map((el) => Math.ceil(el.getBoundingClientRect().bottom)));
    expect(bottoms).toHaveLength(10);
    for (const bottom of bottoms) expect(bottom).toBeLessThanOrEqual(SCREEN.height);
    expect(await visiblePasswordFields(page)).toBe(0);
    expect(await smallTargets(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.width);

    // One task at a time: opening another closes the one open, and with it its password fields.
    await page.locator('summary', { hasText: 'Mot de passe' }).click();
    expect(await page.getByLabel('Nouveau mot de passe', { exact: true }).isVisible()).toBe(true);
    await screenshotAt(page, 'account-password');
    await page.locator('summary', { hasText: 'Supprimer mon compte' }).click();
    expect(await page.getByLabel('Nouveau mot de passe', { exact: true }).isVisible()).toBe(false);
    expect(await visiblePasswordFields(page)).toBe(1);
    await context.close();
  });

  it('lists both devices, signs one out without the other, and ends the other from the list', async () => {
    const user = await svc.createUser();
    const phone = await deviceWith(ANDROID);
    const laptop = await deviceWith(WINDOWS);
    await signIn(phone.page, user);
    await signIn(laptop.page, user);

    // "Se déconnecter" on the laptop: the phone stays signed in.
    await laptop.page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
    await laptop.page.getByRole('status').waitFor();
    expect(await laptop.page.getByRole('status').innerText()).toBe('Vous êtes déconnecté sur cet appareil.');
    expect(await laptop.page.getByRole('button', { name: 'Se connecter', exact: true }).isVisible()).toBe(true);
    await phone.page.reload();
    expect(await phone.page.locator('.tasks').isVisible()).toBe(true);

    // Back on the laptop, then the phone lists both and ends the laptop's session.
    await signIn(laptop.page, user);
    await phone.page.reload();
    await phone.page.locator('summary', { hasText: 'Appareils connectés' }).click();
    const devices = phone.page.locator('#sessions .app');
    expect(await devices.count()).toBe(2);
    expect(await devices.nth(0).innerText()).toMatch(/Chrome sur Android\s*Cet appareil/);
    expect(await devices.nth(1).innerText()).toMatch(/Firefox sur Windows\s*Dernière activité\u00a0: (maintenant|il y a)/);
    expect(await phone.page.locator('#sessions').innerText()).toContain('aucun lieu n’est indiqué');
    await screenshotAt(phone.page, 'account-sessions');
    await devices
      .nth(1)
      .getByRole('button', { name: /^Déconnecter cet appareil/ })
      .click();
    await phone.page.getByRole('status').waitFor();
    expect(await phone.page.getByRole('status').innerText()).toContain('L’appareil a été déconnecté.');
    expect(await phone.page.locator('#sessions .app').count()).toBe(1);
    await screenshotAt(phone.page, 'account-sessions-ended');

    // The laptop's next visit asks to sign in.
    await laptop.page.goto(`${svc.url}/account`);
    expect(await laptop.page.getByRole('button', { name: 'Se connecter', exact: true }).isVisible()).toBe(true);
    await phone.context.close();
    await laptop.context.close();
  });

  it('draws the deletion as destructive and ends on a plain confirmation page', async () => {
    const user = await svc.createUser();
    const { context, page } = await deviceWith(ANDROID);
    await signIn(page, user);
    await page.locator('summary', { hasText: 'Supprimer mon compte' }).click();
    const button = page.getByRole('button', { name: 'Supprimer mon compte' });
    const colours = await button.evaluate((el) => {
      const style = getComputedStyle(el);
      const danger = getComputedStyle(document.documentElement).getPropertyValue('--danger').trim();
      return { background: style.backgroundColor, danger };
    });
    expect(colours.danger).toBe('#a4161a');
    expect(colours.background).toBe('rgb(164, 22, 26)');
    await page.getByLabel('Mot de passe', { exact: true }).fill(user.password);
    await page.getByRole('checkbox', { name: /supprimé définitivement/ }).check();
    await screenshotAt(page, 'account-delete');
    await button.click();
    await page.getByRole('heading', { name: 'Votre compte a été supprimé' }).waitFor();
    expect(await page.locator('form').count()).toBe(0);
    const home = page.getByRole('link', { name: 'Aller à l’accueil du service' });
    expect(await home.getAttribute('href')).toBe('/');
    await screenshotAt(page, 'account-deleted');
    await context.close();
  });
});

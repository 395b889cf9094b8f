// The pages in the browser's dark mode (prefers-color-scheme: dark) and in its light mode: every piece
// of text keeps a WCAG AA contrast with what is behind it (4.5:1, 3:1 for large text), on the sign-in
// pages with an error, consent, the account page with a notice, and a portal page. In dark mode the
// pages are dark and the browser's own parts (fields, scroll bars) follow (color-scheme: light dark).
// Screenshots: test-results/screenshots/<scheme>-<page>.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { catchCallback, launchChromium, screenshotWhole } from './chromium.ts';
import { lowContrast } from './page-checks.ts';

const PHONE = { width: 360, height: 640 };

let svc: TestService;
let chromium: Browser;
let rp: RelyingParty;
let redirectUri: string;
beforeAll(async () => {
  chromium = await launchChromium();
  svc = await startTestService({
    branding: { links: [{ label: 'Mentions légales', url: 'https://example.org/mentions' }] },
  });
  const client = await svc.createClient({ name: 'Marché de Cocody' });
  redirectUri = client.redirectUri;
  rp = await relyingParty(svc.url, client);
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
});

/** The page's colours: its backdrop's luminance (0 black, 1 white) and its color-scheme. */
async function colours(page: Page) {
  return page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g)!.map(Number);
    return { luminance: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255, scheme: getComputedStyle(document.documentElement).colorScheme };
  });
}

async function check(page: Page, scheme: 'light' | 'dark', name: string): Promise<void> {
  await page.waitForLoadState('load');
  await screenshotWhole(page, `${scheme}-${name}`);
  expect.soft(await lowContrast(page), `${scheme} ${name}`).toEqual([]);
  const { luminance, scheme: declared } = await colours(page);
  expect(declared, name).toBe('light dark');
  if (scheme === 'dark') expect(luminance, `${name} is dark`).toBeLessThan(0.15);
  else expect(luminance, `${name} is light`).toBeGreaterThan(0.85);
}

describe('light and dark mode', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: sign-in with an error, consent, the account page and the portal keep AA contrast`, async () => {
      const user = await svc.createUser({ emailVerified: false });
      const context = await chromium.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'fr-FR', colorScheme: scheme });
      const page = await context.newPage();
      const arrived = await catchCallback(page, redirectUri);
      await page.goto((await rp.start()).url);
      await check(page, scheme, 'login');
      await page.getByLabel(/^Adresse e.mail$/).fill(user.email);
      await page.getByLabel('Mot de passe').fill('pas le bon mot de passe');
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.locator('#login-error').waitFor();
      await check(page, scheme, 'login-error');
      await page.getByLabel('Mot de passe').fill(user.password);
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.getByRole('button', { name: 'Autoriser' }).waitFor();
      await check(page, scheme, 'consent');
      await page.getByRole('button', { name: 'Autoriser' }).click();
      await arrived();

      await page.goto(`${svc.url}/account`);
      await page.getByRole('button', { name: 'Renvoyer le lien' }).click();
      await page.getByRole('status').waitFor();
      await check(page, scheme, 'account');

      await page.goto(`${svc.url}/portal`);
      await page.getByRole('link', { name: 'Se connecter avec mon compte' }).click();
      await expect.poll(() => page.url()).toBe(`${svc.url}/portal/`);
      await page.getByRole('link', { name: 'Enregistrer une application' }).first().click();
      await page.fill('#name', 'Appli sombre');
      await page.fill('#description', 'Vue en mode sombre');
      await page.selectOption('#app_type', 'web');
      await page.fill('#redirect_uris', 'https://sombre.example.org/callback');
      await page.getByRole('button', { name: 'Enregistrer l’application' }).click();
      await expect.poll(() => page.url()).toMatch(/\/portal\/apps\/[A-Za-z0-9]{32}$/);
      await check(page, scheme, 'portal-app');
      await context.close();
    });
  }
});

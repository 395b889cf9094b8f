// The consent bottom sheet on phones, at the sizes an in-app browser tab gives it: 360×493 (the ⅔-height
// Custom Tab docs/guides/mobile-app.md recommends), 360×640 and 390×844. The application's name, every
// scope with its value and both buttons are reachable without losing context: the buttons always on
// screen, the scope list above them scrolling inside the sheet when it does not fit. Every link and
// button is at least 44×44 px. Screenshots: test-results/screenshots/consent-sheet-<size>.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { catchCallback, launchChromium, screenshotAt, smallTargets } from './chromium.ts';

const SIZES = [
  { width: 360, height: 493 },
  { width: 360, height: 640 },
  { width: 390, height: 844 },
] as const;

// A 1×1 PNG, served in place of the application's logo host.
const LOGO = 'https://cdn.taxi-abidjan.example.org/logo.png';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgaPj/HwAFgwJ/lLJQ2QAAAABJRU5ErkJggg==', 'base64');

let svc: TestService;
let chromium: Browser;
let rp: RelyingParty;
let redirectUri: string;
beforeAll(async () => {
  chromium = await launchChromium();
  svc = await startTestService();
  const owner = await svc.createUser({ email: `equipe.${Date.now()}@taxi-abidjan.example.org` });
  const { client, clientSecret } = await svc.service.context.clients.create({
    name: 'Taxi Abidjan',
    description: 'Commandez un taxi en deux gestes, partout à Abidjan.',
    appType: 'mobile',
    redirectUris: ['https://taxi-abidjan.example.org/oauth/callback'],
    scopes: ['openid', 'email', 'profile'],
    ownerId: owner.id,
    logoUri: LOGO,
    policyUri: 'https://taxi-abidjan.example.org/confidentialite',
    tosUri: 'https://taxi-abidjan.example.org/conditions',
  });
  await svc.service.context.clients.setVerified(client.clientId, true);
  redirectUri = client.redirectUris[0];
  rp = await relyingParty(svc.url, { clientId: client.clientId, clientSecret, redirectUri, scopes: client.scopes });
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
});

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const inside = (box: Box, size: { width: number; height: number }) =>
  box.top >= 0 && box.left >= 0 && box.bottom <= size.height + 0.5 && box.right <= size.width + 0.5;

async function boxOf(page: Page, selector: string, index = 0): Promise<Box> {
  return page
    .locator(selector)
    .nth(index)
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });
}

async function buttonBoxes(page: Page): Promise<Box[]> {
  return Promise.all(
    ['Autoriser', 'Refuser'].map(async (name) => {
      const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
      return { top: box.y, bottom: box.y + box.height, left: box.x, right: box.x + box.width };
    }),
  );
}

async function openConsent(size: { width: number; height: number }) {
  const user = await svc.createUser({ firstName: 'Aya' });
  const context = await chromium.newContext({ viewport: size, isMobile: true, hasTouch: true, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.route(LOGO, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PNG }));
  await page.goto((await rp.start({ display: 'touch' })).url);
  await page.getByLabel('Adresse e\u2011mail').fill(user.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await page.getByRole('button', { name: 'Autoriser' }).waitFor();
  return { context, page, user };
}

describe('the consent bottom sheet on phones', () => {
  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: the name, every scope with its value and both buttons are reachable`, async () => {
      const { context, page, user } = await openConsent(size);
      expect(await page.evaluate(() => document.body.className)).toBe('bottom-sheet');
      await screenshotAt(page, `consent-sheet-${size.width}x${size.height}`);

      // The sheet never outgrows the screen: the page itself does not scroll, the sheet's body does.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(size.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      // The application's name, on screen at first sight.
      expect(await page.locator('h1').textContent()).toContain('Taxi Abidjan');
      expect(inside(await boxOf(page, 'h1'), size)).toBe(true);
      for (const box of await buttonBoxes(page)) expect(inside(box, size)).toBe(true);

      // Every scope label and value: on screen, or brought there by scrolling the sheet's body, with
      // both buttons still on screen.
      const labels = await page.locator('.scope-label').allTextContents();
      expect(labels.map((l) => l.trim())).toEqual(['Vous identifier', 'Votre adresse e\u2011mail', 'Votre profil']);
      const scrolls = await page.locator('.split-body').evaluate((el) => getComputedStyle(el).overflowY);
      expect(scrolls).toBe('auto');
      for (const selector of ['.scope-label', '.scope-value']) {
        const count = await page.locator(selector).count();
        for (let i = 0; i < count; i += 1) {
          await page
            .locator(selector)
            .nth(i)
            .evaluate((el) => el.scrollIntoView({ block: 'nearest' }));
          expect(inside(await boxOf(page, selector, i), size), `${selector} ${i}`).toBe(true);
          for (const box of await buttonBoxes(page)) expect(inside(box, size), `buttons with ${selector} ${i}`).toBe(true);
        }
      }
      expect(await page.locator('.scope-value').allTextContents()).toEqual([user.email, `${user.username} · Aya`]);
      // The page did not scroll as a whole to get there.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      expect(await smallTargets(page)).toEqual([]);
      await context.close();
    });
  }

  it('is answered from the sheet: "Autoriser" returns to the application with the required scopes and the chosen ones', async () => {
    const { context, page } = await openConsent(SIZES[0]);
    const arrived = await catchCallback(page, redirectUri);
    await page.getByRole('checkbox', { name: 'Votre profil' }).uncheck();
    await page.getByRole('button', { name: 'Autoriser' }).click();
    const callback = await arrived();
    expect(callback.searchParams.get('code')).toBeTruthy();
    await context.close();
  });
});

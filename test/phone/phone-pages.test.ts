// The phone sign-in pages in Chromium, on a phone (360×640, French): the login page's "Recevoir un code
// par SMS", the number page and the code page, each with 44×44 targets and nothing wider than the screen,
// and the code field Android fills in from the SMS (`autocomplete="one-time-code"`, numeric keyboard).
// Screenshots: test-results/screenshots/phone-sign-in-<page>.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshotAt, smallTargets } from '../browser/chromium.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startPhoneService, type PhoneTestService } from './phone-service.ts';

const SCREEN = { width: 360, height: 640 };

let t: PhoneTestService;
let chromium: Browser;
beforeAll(async () => {
  chromium = await launchChromium();
  t = await startPhoneService('embedded');
}, 60_000);
afterAll(async () => {
  await chromium?.close();
  await t?.stop();
});

describe('phone sign-in pages on a phone', () => {
  it('lead from the login page to the code, each page fitting the screen', async () => {
    const user = await t.svc.createUser();
    await t.svc.service.storage.db.query(`UPDATE accounts SET phone_number = '+2250707998877', phone_verified_at = now() WHERE id = $1`, [
      user.id,
    ]);
    const rp = await relyingParty(t.svc.url, await t.svc.createClient({ name: 'Marché de Cocody' }));
    const context = await chromium.newContext({ viewport: SCREEN, isMobile: true, hasTouch: true, locale: 'fr-FR' });
    const page = await context.newPage();
    const check = async (name: string) => {
      await screenshotAt(page, `phone-sign-in-${name}`);
      expect(await smallTargets(page), name).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(SCREEN.width);
    };

    await page.goto((await rp.start()).url);
    await page.getByRole('link', { name: 'Recevoir un code par SMS' }).scrollIntoViewIfNeeded();
    await check('login');
    await page.getByRole('link', { name: 'Recevoir un code par SMS' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 })
      .toBe('Se connecter avec son téléphone');
    expect(await page.locator('#country option:checked').textContent()).toContain('(+221)');
    await page.selectOption('#country', '+225');
    await page.fill('#number', '07 07 99 88 77');
    await check('number');
    await page.getByRole('button', { name: 'Recevoir le code' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 }).toBe('Saisissez le code reçu');
    const field = page.locator('#code');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await check('code');

    await field.fill('000000');
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect.poll(() => page.locator('#code-error').textContent(), { timeout: 10_000 }).toContain('Il vous reste 4 essais');
    await check('code-wrong');
    await page.locator('#code').fill(t.fake.codes().at(-1)!);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Autoriser' }).count(), { timeout: 10_000 }).toBe(1);
    await context.close();
  });

  it('the account page leads to the number, whose page fits the screen', async () => {
    const user = await t.svc.createUser();
    const context = await chromium.newContext({ viewport: SCREEN, isMobile: true, hasTouch: true, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${t.svc.url}/account`);
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    const link = page.getByRole('link', { name: 'Numéro de téléphone' });
    await link.scrollIntoViewIfNeeded();
    expect(await smallTargets(page)).toEqual([]);
    await link.click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 }).toBe('Numéro de téléphone');
    await screenshotAt(page, 'phone-sign-in-account-number');
    expect(await smallTargets(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.width);
    await context.close();
  });
});

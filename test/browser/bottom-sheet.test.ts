// The bottom-sheet layout at a phone viewport: with display=touch, or for a client registered as a
// mobile app, login and consent are a sheet anchored at the bottom of the screen with the buttons in
// thumb reach; a plain web request gets the full-page layout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { launchChromium, PHONE, screenshots } from './chromium.ts';

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

async function sheetGeometry(page: Page) {
  return page.evaluate(() => {
    const sheet = document.querySelector('main.sheet')!.getBoundingClientRect();
    return {
      bodyClass: document.body.className,
      justify: getComputedStyle(document.body).justifyContent,
      top: sheet.top,
      bottom: sheet.bottom,
      radius: getComputedStyle(document.querySelector('main.sheet')!).borderTopLeftRadius,
      viewport: window.innerHeight,
    };
  });
}

describe('bottom sheet', () => {
  it('anchors login and consent at the bottom with display=touch, buttons within thumb reach', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient({ name: 'Taxi Abidjan' }));
    const context = await chromium.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto((await rp.start({ display: 'touch' })).url);

    const login = await sheetGeometry(page);
    expect(login.bodyClass).toBe('bottom-sheet');
    expect(login.justify).toBe('flex-end');
    expect(Math.round(login.bottom)).toBe(PHONE.height);
    expect(login.top).toBeGreaterThan(0);
    expect(login.radius).toBe('12px');
    const submit = await page.getByRole('button', { name: 'Se connecter', exact: true }).boundingBox();
    // In the lower half of the screen, where a thumb reaches, and at least 44 px tall.
    expect(submit!.y).toBeGreaterThan(PHONE.height / 2);
    expect(submit!.height).toBeGreaterThanOrEqual(44);
    await screenshots(page, 'sheet-01-login');

    await page.getByLabel('Adresse e\u2011mail').fill(user.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('button', { name: 'Autoriser' }).waitFor();
    const consent = await sheetGeometry(page);
    expect(consent.bodyClass).toBe('bottom-sheet');
    // Anchored at the bottom edge, never taller than the screen: its body scrolls above the buttons,
    // which stay at the bottom (test/browser/consent-sheet.test.ts checks three phone sizes).
    expect(Math.round(consent.bottom)).toBe(PHONE.height);
    expect(consent.top).toBeGreaterThanOrEqual(0);
    const allow = await page.getByRole('button', { name: 'Autoriser' }).boundingBox();
    expect(allow!.y + allow!.height).toBeLessThanOrEqual(PHONE.height);
    expect(allow!.y).toBeGreaterThan(PHONE.height / 2);
    await screenshots(page, 'sheet-02-consent');
    await context.close();
  });

  it('uses the sheet for a client registered as a mobile app, without display=touch', async () => {
    const client = await svc.createClient({ name: 'Appli Wave', appType: 'mobile', redirectUris: ['com.example.wave:/callback'] });
    const rp = await relyingParty(svc.url, client);
    const context = await chromium.newContext({ viewport: PHONE, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto((await rp.start()).url);
    const login = await sheetGeometry(page);
    expect(login.bodyClass).toBe('bottom-sheet');
    expect(Math.round(login.bottom)).toBe(PHONE.height);
    await context.close();
  });

  it('keeps the full-page layout for a web application', async () => {
    const rp = await relyingParty(svc.url, await svc.createClient());
    const context = await chromium.newContext({ viewport: PHONE, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto((await rp.start()).url);
    const login = await sheetGeometry(page);
    expect(login.bodyClass).toBe('page');
    expect(login.top).toBe(0);
    // Nothing wider than the 360 px screen: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });
});

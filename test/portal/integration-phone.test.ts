// The portal on a phone (360 px wide), in Chromium: its title is written once and names the deployment,
// its header carries the deployment's branding, every link and button is a target of at least 44 by
// 44 px, nothing scrolls sideways, axe finds no WCAG A/AA violation, and each code block of the integration help has a copy button that
// copies exactly the block. Screenshots go to test-results/screenshots/.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshotAt, screenshotWhole, smallTargets } from '../browser/chromium.ts';
import { startTestService, type TestService } from '../support/service.ts';

const PHONE = { width: 360, height: 640 };

describe('the portal on a phone', { timeout: 120_000 }, () => {
  let ts: TestService;
  let browser: Browser | undefined;
  let axeSource: string;
  beforeAll(async () => {
    axeSource = await readFile(join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'), 'utf8');
    ts = await startTestService({ branding: { serviceName: 'Mairie de Thiès', links: [] } });
  });
  afterAll(async () => {
    await browser?.close();
    await ts?.stop();
  });

  it('is branded, titled once, has 44 px targets, and copies each code block', async () => {
    browser = await launchChromium();
    const owner = await ts.createUser();
    const context = await browser.newContext({ locale: 'fr-FR', viewport: PHONE, hasTouch: true, isMobile: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ts.url });
    const page = await context.newPage();

    await page.goto(`${ts.url}/portal`);
    expect(await page.title()).toBe('Portail développeurs · Mairie de Thiès');
    expect(await page.textContent('.portal-name')).toMatch(/Mairie de Thiès\s+Portail développeurs/);
    expect(await smallTargets(page)).toEqual([]);

    await page.getByRole('link', { name: 'Se connecter avec mon compte' }).click();
    await page.fill('#email', owner.email);
    await page.fill('#password', owner.password);
    await page.press('#password', 'Enter');
    await expect.poll(() => page.url()).toBe(`${ts.url}/portal/`);
    expect(await page.title()).toBe('Mes applications · Portail développeurs · Mairie de Thiès');
    expect(await smallTargets(page)).toEqual([]);

    await page.getByRole('link', { name: 'Enregistrer une application' }).first().click();
    expect(await page.isChecked('#scope-profile'), 'profile is checked by default').toBe(true);
    expect(await smallTargets(page)).toEqual([]);
    await page.fill('#name', 'Réservation de salles');
    await page.fill('#description', 'Réserver une salle municipale pour une association.');
    await page.selectOption('#app_type', 'web');
    await page.fill('#redirect_uris', 'https://salles.example.org/callback');
    await page.getByRole('button', { name: 'Enregistrer l’application' }).click();
    await expect.poll(() => page.url()).toMatch(/\/portal\/apps\/[A-Za-z0-9]{32}$/);

    await screenshotAt(page, 'portal-app-phone');
    expect(await smallTargets(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const blocks = await page.locator('.help pre').evaluateAll((pres) => pres.map((pre) => pre.id));
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    for (const id of blocks) await expect.poll(() => page.isVisible(`button[data-copy="${id}"]`), { message: id }).toBe(true);

    const node = page.locator('button[data-copy="help-node"]');
    await node.click();
    await expect.poll(() => node.textContent()).toBe('Copié');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe((await page.textContent('#help-node'))!.trim());
    expect(copied).toContain('client.randomState()');

    // axe (WCAG 2.x A and AA) on the application's page, run through the DevTools protocol: the page's
    // policy stays in force.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(d: Document, o: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }> };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations).toEqual([]);

    await page.locator('#help-section-node').scrollIntoViewIfNeeded();
    await screenshotAt(page, 'portal-integration-phone');
    await page.locator('#help-authorize').scrollIntoViewIfNeeded();
    await screenshotAt(page, 'portal-integration-phone-authorize');
    await screenshotWhole(page, 'portal-integration-phone-whole');
    await context.close();
  });
});

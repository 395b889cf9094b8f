// Consent on a phone for a web application (no display=touch, no mobile client): the compact sheet of
// the in-app tab, chosen by the screen's width alone. At 360×493 and 360×640, with the three links a
// French public service must show at the foot of its pages, the application's name, every scope with
// its value and its switch, the deployment's links and both buttons are reachable: the buttons always on
// screen, the rest on screen or brought there by scrolling the sheet's body, never the page. At 200 %
// text the page scrolls as a whole, header included, under the buttons that stick to the bottom edge.
// On a wide screen the consent stays a card. Screenshots: test-results/screenshots/narrow-consent-*.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { catchCallback, DESKTOP, launchChromium, screenshotAt, smallTargets } from './chromium.ts';
import { pageWithTextSize } from './page-checks.ts';

const LINKS = ['Mentions légales', 'Accessibilité\u00a0: non conforme', 'Contact'];

let svc: TestService;
let chromium: Browser;
let rp: RelyingParty;
let redirectUri: string;
beforeAll(async () => {
  chromium = await launchChromium();
  svc = await startTestService({
    branding: {
      links: [
        { label: LINKS[0], url: 'https://mairie.example.fr/mentions-legales' },
        { label: LINKS[1], url: 'https://mairie.example.fr/accessibilite' },
        { label: LINKS[2], url: 'mailto:contact@mairie.example.fr' },
      ],
    },
  });
  const client = await svc.createClient({ name: 'Médiathèque intercommunale', appType: 'web' });
  redirectUri = client.redirectUri;
  rp = await relyingParty(svc.url, client);
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

async function consentPage(
  size: { width: number; height: number },
  options: { textSize?: number; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const user = await svc.createUser({ firstName: 'Aya' });
  const locale = options.locale ?? 'fr-FR';
  const context = await chromium.newContext({ viewport: size, isMobile: true, hasTouch: true, locale });
  const page = await pageWithTextSize(context, options.textSize ?? 100);
  await page.goto((await rp.start()).url);
  await page.getByLabel(/^(Adresse e.mail|E.mail address)$/).fill(user.email);
  await page.getByLabel(/^(Mot de passe|Password)$/).fill(user.password);
  await page.getByRole('button', { name: /^(Se connecter|Sign in)$/ }).click();
  await page.locator('.split-body').waitFor();
  return { context, page };
}

/** Every box the user must reach, brought into view in turn, with where the screen and the buttons are then. */
async function reachability(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element): Box => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const buttons = [...document.querySelectorAll('.actions .button')];
    const targets = [...document.querySelectorAll('h1, .scope-label, .scope-value, .scope .toggle, .scope .tag.locked, .brand-links a')];
    return targets.map((el) => {
      el.scrollIntoView({ block: 'nearest' });
      return {
        what: `${el.className} ${(el.textContent ?? '').trim() || (el as HTMLInputElement).id}`,
        box: box(el),
        buttons: buttons.map(box),
        pageScroll: window.scrollY,
      };
    });
  });
}

const onScreen = (box: Box, size: { width: number; height: number }) =>
  box.top >= 0 && box.left >= 0 && box.bottom <= size.height + 0.5 && box.right <= size.width + 0.5;

describe('consent for a web application on a phone', () => {
  const cases = [
    { width: 360, height: 493 },
    { width: 360, height: 640 },
  ].flatMap((size) => [
    { size, lang: 'fr', locale: 'fr-FR' },
    { size, lang: 'en', locale: 'en-GB' },
  ]);
  for (const { size, lang, locale } of cases) {
    it(`at ${size.width}×${size.height} in ${lang}: the name, every scope, the footer links and both buttons are reachable`, async () => {
      const { context, page } = await consentPage(size, { locale });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      expect(await page.evaluate(() => document.body.className)).toBe('page');
      await screenshotAt(page, `narrow-consent-${size.width}x${size.height}${lang === 'fr' ? '' : `-${lang}`}`);

      // The footer links are in the scrolling body, above the buttons, not under them.
      expect(await page.locator('.split-body .brand-links a').allTextContents()).toEqual(LINKS);
      expect(await page.locator('.actions ~ .brand-links, .split-form ~ .brand-links').count()).toBe(0);
      // The sheet never outgrows the screen: the page does not scroll, the sheet's body does.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(size.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      expect(await page.locator('.split-body').evaluate((el) => getComputedStyle(el).overflowY)).toBe('auto');
      const reached = await reachability(page);
      expect(reached.map((r) => r.what).filter((w) => /toggle/.test(w))).toHaveLength(1);
      expect(reached.map((r) => r.what).filter((w) => /locked/.test(w))).toHaveLength(2);
      for (const { what, box, buttons, pageScroll } of reached) {
        expect(onScreen(box, size), what).toBe(true);
        expect(box.bottom, `${what} above the buttons`).toBeLessThanOrEqual(buttons[0].top + 0.5);
        for (const button of buttons) expect(onScreen(button, size), `buttons with ${what}`).toBe(true);
        expect(pageScroll, what).toBe(0);
      }
      expect(await smallTargets(page)).toEqual([]);
      await context.close();
    });
  }

  it('at 200 % text on 360×640: everything is reached by scrolling, under buttons that stay on screen', async () => {
    const size = { width: 360, height: 640 };
    const { context, page } = await consentPage(size, { textSize: 200 });
    await screenshotAt(page, 'narrow-consent-360x640-text200');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    for (const { what, box, buttons } of await reachability(page)) {
      expect(onScreen(box, size), what).toBe(true);
      expect(box.bottom, `${what} above the buttons`).toBeLessThanOrEqual(buttons[0].top + 0.5);
      for (const button of buttons) expect(onScreen(button, size), `buttons with ${what}`).toBe(true);
    }
    // A switch reached with the keyboard is not hidden under the buttons either (WCAG 2.4.11).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('#scope-profile').focus();
    const [toggle, allow] = await Promise.all([
      page.locator('#scope-profile').boundingBox(),
      page.getByRole('button', { name: 'Autoriser' }).boundingBox(),
    ]);
    expect(toggle!.y + toggle!.height).toBeLessThanOrEqual(allow!.y);
    await screenshotAt(page, 'narrow-consent-360x640-text200-scrolled');
    await context.close();
  });

  it('is answered from the narrow sheet, a switch turned off', async () => {
    const { context, page } = await consentPage({ width: 360, height: 493 });
    const arrived = await catchCallback(page, redirectUri);
    await page.getByRole('checkbox', { name: 'Votre profil' }).uncheck();
    await page.getByRole('button', { name: 'Autoriser' }).click();
    expect((await arrived()).searchParams.get('code')).toBeTruthy();
    await context.close();
  });

  it('in English, names the refusal with the word on its button', async () => {
    const { context, page } = await consentPage({ width: 360, height: 640 }, { locale: 'en-GB' });
    const refuse = (await page.locator('.actions .button.secondary').innerText()).trim();
    expect(refuse).toBe('Deny');
    expect(await page.locator('.why').innerText()).toContain(`choose ${refuse}.`);
    await context.close();
  });

  it('stays a card with its full scope descriptions on a wide screen', async () => {
    const { context, page } = await consentPage(DESKTOP);
    const layout = await page.evaluate(() => ({
      scrolls: getComputedStyle(document.querySelector('.split-body')!).overflowY,
      buttons: getComputedStyle(document.querySelector('.actions')!).position,
      description: getComputedStyle(document.querySelector('.scope-description')!).fontSize,
      card: document.querySelector('main')!.getBoundingClientRect().width,
    }));
    expect(layout).toMatchObject({ scrolls: 'visible', buttons: 'static', description: '14px' });
    expect(layout.card).toBeLessThan(DESKTOP.width / 2);
    await context.close();
  });
});

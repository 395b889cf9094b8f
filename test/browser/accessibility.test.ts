// The end user's pages checked by axe-core (WCAG 2.x A and AA rules) in a real browser, in French and in
// English, on a 360×640 phone: sign-in (plain and with an error), sign-up with its error summary, consent
// for a web application with the deployment's three footer links, the forgot form, an error page, the
// sign-out without a session, the account page with a task open, the portal's list of applications;
// sign-in and consent again at 200 % text and in dark mode. Every page must have no violation; a second
// case removes a label and sees axe report it, so a silent checker cannot pass for a clean page.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { catchCallback, launchChromium } from './chromium.ts';
import { pageWithTextSize } from './page-checks.ts';

const PHONE = { width: 360, height: 640 };
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const LANGUAGES = [
  { lang: 'fr', locale: 'fr-FR' },
  { lang: 'en', locale: 'en-GB' },
] as const;

interface Violation {
  id: string;
  impact: string | null;
  targets: string[];
}

let svc: TestService;
let chromium: Browser;
let rp: RelyingParty;
let redirectUri: string;
let axeSource: string;
beforeAll(async () => {
  axeSource = await readFile(join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'), 'utf8');
  chromium = await launchChromium();
  svc = await startTestService({
    branding: {
      links: [
        { label: 'Mentions légales', url: 'https://mairie.example.fr/mentions-legales' },
        {
          label: { fr: 'Accessibilité\u00a0: non conforme', en: 'Accessibility: not compliant' },
          url: 'https://mairie.example.fr/accessibilite',
        },
        { label: 'Contact', url: 'mailto:contact@mairie.example.fr' },
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

interface PhoneOptions {
  textSize?: number;
  colorScheme?: 'light' | 'dark';
}

async function phone(locale: string, options: PhoneOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP for this test only: the pages' policy forbids inline script, and axe is injected as one.
  // The pages themselves are unchanged; other browser tests keep the policy in force.
  const context = await chromium.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    locale,
    colorScheme: options.colorScheme ?? 'light',
    bypassCSP: true,
  });
  return { context, page: await pageWithTextSize(context, options.textSize ?? 100) };
}

/** axe's violations on the page as it is now, WCAG 2.x A/AA rules only. */
async function violations(page: Page): Promise<Violation[]> {
  await page.waitForLoadState('load');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            options: object,
          ): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, WCAG_TAGS);
}

/** The page has no violation and is in `lang`; on failure the message names each rule and its elements. */
async function audit(page: Page, lang: string, name: string): Promise<void> {
  const found = await violations(page);
  expect.soft(await page.evaluate(() => document.documentElement.lang), `${name} language`).toBe(lang);
  expect
    .soft(
      found.map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`),
      `${lang} ${name}`,
    )
    .toEqual([]);
}

async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.locator('form.stack button[type="submit"].primary').click();
}

describe('axe finds no WCAG A/AA violation on a 360×640 phone', () => {
  it.each(LANGUAGES)('in $lang: sign-in, sign-up, consent, forgot, error, sign-out, account and portal', async ({ lang, locale }) => {
    const user = await svc.createUser({ firstName: 'Aya' });
    await svc.service.context.clients.create({
      name: 'Réservation de salles',
      description: 'Réserver une salle municipale',
      appType: 'web',
      redirectUris: ['https://salles.example.org/callback'],
      scopes: ['openid', 'email'],
      ownerId: user.id,
    });
    const { context, page } = await phone(locale);

    // Pages met without a session.
    await page.goto(`${svc.url}/oauth/logout`);
    await page.locator('form button[type="submit"]').waitFor();
    await audit(page, lang, 'logout without a session');
    await page.goto(`${svc.url}/oauth/authorize?client_id=application-inconnue&response_type=code&scope=openid`);
    await page.locator('.ways').waitFor();
    await audit(page, lang, 'error (unknown application)');
    await page.goto(`${svc.url}/password/forgot`);
    await audit(page, lang, 'forgot');

    await page.goto((await rp.start()).url);
    await page.locator('#password').waitFor();
    await audit(page, lang, 'login');
    await fillLogin(page, user.email, 'pas le bon mot de passe');
    await page.locator('#login-error').waitFor();
    await audit(page, lang, 'login with an error');

    await page.locator('a[href$="/signup"]').click();
    await page.fill('#email', 'pas-une-adresse');
    await page.fill('#username', `aya_${lang}_${Date.now()}`);
    await page.fill('#first_name', 'Aya');
    await page.fill('#password', 'court');
    await page.locator('form.stack button[type="submit"].primary').click();
    await page.locator('#error-summary').waitFor();
    await audit(page, lang, 'sign-up with errors');

    const arrived = await catchCallback(page, redirectUri);
    await page.goto((await rp.start()).url);
    await fillLogin(page, user.email, user.password);
    await page.locator('.split-body').waitFor();
    expect(await page.locator('.brand-links a').count()).toBe(3);
    await audit(page, lang, 'consent');
    await page.locator('.actions .button.primary').click();
    await arrived();

    await page.goto(`${svc.url}/account`);
    await page.locator('#sessions summary').click();
    expect(await page.locator('#sessions').getAttribute('open')).not.toBeNull();
    await audit(page, lang, 'account, devices open');

    await page.goto(`${svc.url}/portal/login`);
    await expect.poll(() => page.url()).toBe(`${svc.url}/portal/`);
    expect(await page.locator('.app-name').allInnerTexts()).toEqual(['Réservation de salles']);
    await audit(page, lang, 'portal applications');
    await context.close();
  });

  it.each(
    LANGUAGES.flatMap(({ lang, locale }) => [
      { lang, locale, mode: 'at 200 % text', options: { textSize: 200 } as PhoneOptions },
      { lang, locale, mode: 'in dark mode', options: { colorScheme: 'dark' } as PhoneOptions },
    ]),
  )('in $lang, $mode: sign-in and consent', async ({ lang, locale, options }) => {
    const user = await svc.createUser();
    const { context, page } = await phone(locale, options);
    await page.goto((await rp.start()).url);
    await page.locator('#password').waitFor();
    if (options.textSize) expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px');
    else expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    await audit(page, lang, 'login');
    await fillLogin(page, user.email, user.password);
    await page.locator('.split-body').waitFor();
    await audit(page, lang, 'consent');
    await context.close();
  });
});

describe('the checker', () => {
  it('axe reports a field without a label', async () => {
    const { context, page } = await phone('fr-FR');
    await page.goto((await rp.start()).url);
    await page.locator('#password').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.evaluate(() => document.querySelector('label[for="password"]')!.remove());
    const found = await violations(page);
    expect(found.map((v) => v.id)).toContain('label');
    expect(found.find((v) => v.id === 'label')!.targets).toEqual(['#password']);
    await context.close();
  });
});

// Passkeys in a real browser, on both stores (embedded PGlite; Postgres with Redis): Chromium's virtual
// authenticator (DevTools WebAuthn domain: ctap2, internal, resident keys, user verification) answers the
// page's create() and get(), headless. A user signs in with a password and accepts the offer, signs out,
// then signs in with the passkey only, through the button and through the identifier field's autofill, and
// the application receives an ID token saying how (amr). The account page lists, adds and removes passkeys
// with a notice e-mail each, and tells the browser through the Signal API when one is removed or the
// account deleted. Screenshots at 360×640 in French and English.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { CHROMIUM, screenshotAt } from '../browser/chromium.ts';

const SMALL_PHONE = { width: 360, height: 640 };

async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const add = async () =>
    (
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      })
    ).authenticatorId;
  let authenticatorId = await add();
  return {
    async credentials() {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
    /** Another device: the passkey of the first one is no longer at hand. */
    async replace() {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
      authenticatorId = await add();
    },
  };
}

/** Records the page's Signal API calls (the browser's own implementation, if any, is called too). */
async function recordSignals(context: BrowserContext) {
  await context.addInitScript(() => {
    const calls: unknown[] = [];
    (window as unknown as { signals: unknown[] }).signals = calls;
    const PKC = window.PublicKeyCredential as unknown as Record<string, unknown> | undefined;
    if (!PKC) return;
    for (const name of ['signalUnknownCredential', 'signalAllAcceptedCredentials']) {
      const original = PKC[name] as ((o: unknown) => Promise<void>) | undefined;
      PKC[name] = (options: unknown) => {
        calls.push({ name, options });
        return original ? original.call(PKC, options).catch(() => undefined) : Promise.resolve();
      };
    }
  });
}

/** The application's redirect URI, answered in the browser: each call waits for the next arrival there. */
async function callbacks(page: Page, redirectUri: string): Promise<() => Promise<URL>> {
  const arrived: URL[] = [];
  let wake: (() => void) | undefined;
  await page.route(`${new URL(redirectUri).origin}/**`, async (route) => {
    arrived.push(new URL(route.request().url()));
    wake?.();
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the application' });
  });
  return async () => {
    while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return arrived.shift()!;
  };
}

/** axe's WCAG 2.x A/AA violations on the page as it is now, each as "rule: elements". */
async function axeViolations(page: Page): Promise<string[]> {
  const source = await readFile(join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'), 'utf8');
  await page.waitForLoadState('load');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: source });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(d: Document, o: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }> };
      }
    ).axe;
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

const signals = (page: Page) =>
  page.evaluate(() => (window as unknown as { signals: Array<{ name: string; options: Record<string, unknown> }> }).signals);

function decodeIdToken(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

for (const store of ['embedded', 'postgres+redis'] as const) {
  describe(`passkeys in Chromium (${store})`, () => {
    let svc: TestService;
    let smtp: SmtpSink;
    let browser: Browser;
    let client: TestClient;
    let rp: RelyingParty;
    let pg: FreshPostgres | undefined;
    let redis: FreshRedis | undefined;

    beforeAll(async () => {
      browser = await playwright.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--host-resolver-rules=MAP localhost 127.0.0.1',
        ],
      });
      smtp = await startSmtpSink();
      let storage;
      if (store === 'postgres+redis') {
        pg = await freshPostgres();
        redis = await freshRedis();
        storage = {
          kind: 'postgres' as const,
          postgres: { url: pg.url },
          redis: redis.config,
        };
      }
      svc = await startTestService({ mail: smtp.mailConfig(), ...(storage ? { storage } : {}) }, storage ? { migrations: 'auto' } : {}, {
        host: 'localhost',
      });
      client = await svc.createClient({ name: 'Marché de Cocody' });
      rp = await relyingParty(svc.url, client);
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await svc?.stop();
      await smtp?.stop();
      await pg?.drop();
      await redis?.cleanup();
    });

    it('password, the offer accepted, sign-out, then the passkey alone (button and autofill) to the application', async () => {
      const user = await svc.createUser({ firstName: 'Adjoua' });
      const context = await browser.newContext({ viewport: SMALL_PHONE, locale: 'fr-FR' });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const authenticator = await virtualAuthenticator(context, page);
      const arrival = await callbacks(page, client.redirectUri);

      // 1. Password sign-in; the page's script has said this device can create a passkey: the offer.
      let flow = await rp.start();
      await page.goto(flow.url);
      await expect.poll(() => page.locator('button', { hasText: 'Se connecter avec une clé d’accès' }).isVisible()).toBe(true);
      expect(await page.getAttribute('#email', 'autocomplete')).toBe('username webauthn');
      await expect.poll(() => page.inputValue('input[name="passkey_capable"]')).toBe('yes');
      await page.fill('#email', user.email);
      await page.fill('#password', user.password);
      await page.click('form[action$="/login"] button[type="submit"]');
      await page.waitForSelector('h1:has-text("Se connecter plus vite la prochaine fois")');
      await page.click('button:has-text("Créer une clé d’accès")');
      // The consent step, then back at the application.
      await page.waitForSelector('form[action$="/consent"]');
      await page.click('form[action$="/consent"] button.primary');
      const first = await arrival();
      const tokens = await rp.redeem(first, flow);
      expect(decodeIdToken(tokens.id_token!).amr).toEqual(['pwd']);
      expect(await authenticator.credentials()).toHaveLength(1);
      const added = await smtp.next(user.email);
      expect(added.subject).toMatch(/clé d’accès a été ajoutée/);

      // 2. Sign out of the service (the account page's button): the identifier field's autofill (conditional
      // mediation) answers as soon as the page asks, the virtual authenticator standing for the user's tap.
      const signOut = async () => {
        await page.goto(`${svc.url}/account`);
        await page.click('form[action$="/account/sign-out"] button');
        await page.waitForSelector('form[action$="/account/login"]');
      };
      await signOut();
      flow = await rp.start();
      await page.goto(flow.url, { waitUntil: 'commit' });
      const viaAutofill = decodeIdToken((await rp.redeem(await arrival(), flow)).id_token!);
      expect(viaAutofill.amr).toEqual(['hwk']);

      // 3. Signed out again, in a browser without autofill of passkeys: the button.
      await signOut();
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      flow = await rp.start();
      await page.goto(flow.url);
      await page.click('button:has-text("Se connecter avec une clé d’accès")');
      const viaButton = decodeIdToken((await rp.redeem(await arrival(), flow)).id_token!);
      expect(viaButton.amr).toEqual(['hwk']);
      expect(viaButton.sub).toBe(viaAutofill.sub);
      expect(await authenticator.credentials()).toHaveLength(1);
      await context.close();
    });

    if (store === 'embedded')
      it('shows the login button, the offer and the list at 360×640, in French and English, with nothing for axe', async () => {
        const copy = {
          fr: {
            button: 'Se connecter avec une clé d’accès',
            offer: 'Se connecter plus vite la prochaine fois',
            accept: 'Créer une clé d’accès',
          },
          en: { button: 'Sign in with a passkey', offer: 'Sign in faster next time', accept: 'Create a passkey' },
        };
        for (const locale of ['fr', 'en'] as const) {
          const user = await svc.createUser();
          // bypassCSP for axe only, injected as an inline script; the pages are unchanged.
          const context = await browser.newContext({ viewport: SMALL_PHONE, locale: locale === 'fr' ? 'fr-FR' : 'en-GB', bypassCSP: true });
          const page = await context.newPage();
          page.setDefaultTimeout(15_000);
          await virtualAuthenticator(context, page);
          // A browser without passkey autofill, so that the login page stays on screen.
          await context.addInitScript(() => {
            PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
          });
          const arrival = await callbacks(page, client.redirectUri);
          const flow = await rp.start({ ui_locales: locale });
          await page.goto(flow.url);
          await page.waitForSelector(`button:has-text("${copy[locale].button}")`);
          await expect.poll(() => page.inputValue('input[name="passkey_capable"]')).toBe('yes');
          await screenshotAt(page, `passkeys-${locale}-login`);
          expect(await axeViolations(page), `${locale} login`).toEqual([]);

          await page.fill('#email', user.email);
          await page.fill('#password', user.password);
          await page.click('form[action$="/login"] button[type="submit"]');
          await page.waitForSelector(`h1:has-text("${copy[locale].offer}")`);
          await page.waitForSelector(`button:has-text("${copy[locale].accept}")`);
          await screenshotAt(page, `passkeys-${locale}-offer`);
          expect(await axeViolations(page), `${locale} offer`).toEqual([]);
          await page.click(`button:has-text("${copy[locale].accept}")`);
          await page.click('form[action$="/consent"] button.primary');
          await arrival();
          await page.waitForURL((url) => url.hostname === 'app.example.org');

          await page.goto(`${svc.url}/account?task=passkeys`);
          await page.waitForSelector('#passkeys li');
          await page.locator('#passkeys').scrollIntoViewIfNeeded();
          await screenshotAt(page, `passkeys-${locale}-account`);
          expect(await axeViolations(page), `${locale} account`).toEqual([]);
          await context.close();
        }
      });

    it('the account page lists, adds and removes passkeys, with a notice and the Signal API; deletion signals too', async () => {
      for (const locale of ['fr', 'en'] as const) {
        const user = await svc.createUser();
        const context = await browser.newContext({ viewport: SMALL_PHONE, locale: locale === 'fr' ? 'fr-FR' : 'en-GB' });
        await recordSignals(context);
        const page = await context.newPage();
        const authenticator = await virtualAuthenticator(context, page);
        await page.goto(`${svc.url}/account`);
        await page.fill('#email', user.email);
        await page.fill('#password', user.password);
        await page.click('form[action$="/account/login"] button[type="submit"]');
        await page.click('#passkeys summary');
        await page.fill('#passkey-add-password', user.password);
        await page.click('form[action$="/account/passkeys/add"] button[type="submit"]');
        await page.waitForURL(/notice=passkey-added/);
        expect((await smtp.next(user.email)).subject).toMatch(locale === 'fr' ? /ajoutée/ : /added/);
        // A second one, from another device, so that the list shows two.
        await authenticator.replace();
        await page.goto(`${svc.url}/account?task=passkeys`);
        await page.fill('#passkey-add-password', user.password);
        await page.click('form[action$="/account/passkeys/add"] button[type="submit"]');
        await page.waitForURL(/notice=passkey-added/);
        await smtp.next(user.email);
        await expect.poll(() => page.locator('#passkeys li').count()).toBe(2);
        await page.locator('#passkeys summary').scrollIntoViewIfNeeded();
        const ids = (
          await svc.service.context.db.query<{ id: string }>('SELECT id FROM passkeys WHERE account_id = $1', [user.id])
        ).rows.map((r) => r.id);
        expect(ids).toHaveLength(2);

        // Rename one (confirmed by the password).
        await page.fill('#passkey-name-1', 'Téléphone de Fatou');
        await page.fill('#passkey-password-1', user.password);
        await page.click('#passkeys li:nth-child(2) button:not([formaction])');
        await page.waitForURL(/notice=passkey-renamed/);
        expect(await page.locator('#passkeys li .app-name').allTextContents()).toContain('Téléphone de Fatou');

        // Remove one (confirmed by the password): the notice, and the signal of the passkey gone.
        const removed = await page.inputValue('#passkeys li:first-child input[name="passkey"]');
        await page.fill('#passkey-password-0', user.password);
        await page.click('#passkeys li:first-child button[formaction$="/remove"]');
        await page.waitForURL(/notice=passkey-removed/);
        expect((await smtp.next(user.email)).subject).toMatch(locale === 'fr' ? /supprimée/ : /removed/);
        await expect
          .poll(async () => (await signals(page)).find((s) => s.name === 'signalUnknownCredential')?.options)
          .toEqual({ rpId: 'localhost', credentialId: removed });
        const accepted = (await signals(page)).find((s) => s.name === 'signalAllAcceptedCredentials')?.options;
        expect(accepted?.allAcceptedCredentialIds).toEqual(ids.filter((id) => id !== removed));

        // Delete the account: the page after it tells the browser that none of its passkeys is accepted.
        await page.click('#delete summary');
        await page.fill('#delete_password', user.password);
        await page.check('#delete input[name="confirm"]');
        await page.click('form[action$="/account/delete"] button[type="submit"]');
        await page.waitForURL(/\/account\/deleted/);
        await expect
          .poll(async () => (await signals(page)).find((s) => s.name === 'signalAllAcceptedCredentials')?.options)
          .toMatchObject({ rpId: 'localhost', allAcceptedCredentialIds: [] });
        await context.close();
      }
    });
  });
}

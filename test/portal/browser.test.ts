// One real browser, end to end: an owner registers an application in the portal, then a user signs
// in to that application (login and consent in Chromium) and openid-client redeems the code.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { launchChromium } from '../browser/chromium.ts';

const REDIRECT_URI = 'https://app.example.org/callback';

describe('portal in a real browser', { timeout: 90_000 }, () => {
  let ts: TestService;
  let browser: Browser | undefined;
  beforeAll(async () => {
    ts = await startTestService();
  });
  afterAll(async () => {
    await browser?.close();
    await ts?.stop();
  });

  it('registers an application in the portal, then a user signs in to it with openid-client', async () => {
    // Never skipped: without Chromium this test fails (inside the test, not a hook) and says how to fix it.
    browser = await launchChromium();
    const owner = await ts.createUser();
    const ownerContext = await browser.newContext({ locale: 'fr-FR' });
    const page = await ownerContext.newPage();
    const scriptErrors: string[] = [];
    page.on('pageerror', (error) => scriptErrors.push(error.message));
    // Every resource of the pages (stylesheets, the copy script) must load; the browser's own favicon probe aside.
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) scriptErrors.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(`${ts.url}/portal`);
    await page.getByRole('link', { name: 'Se connecter avec mon compte' }).click();
    await page.fill('#email', owner.email);
    await page.fill('#password', owner.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect.poll(() => page.url()).toBe(`${ts.url}/portal/`);
    expect(await page.textContent('body')).toContain(owner.email);

    await page.getByRole('link', { name: 'Enregistrer une application' }).click();
    await page.fill('#name', 'Appli du navigateur');
    await page.fill('#description', 'Enregistrée dans un vrai navigateur');
    await page.selectOption('#app_type', 'web');
    await page.fill('#redirect_uris', REDIRECT_URI);
    await page.check('#scope-profile');
    await page.getByRole('button', { name: 'Enregistrer l’application' }).click();
    await expect.poll(() => page.url()).toMatch(/\/portal\/apps\/[A-Za-z0-9]{32}$/);

    const clientId = (await page.textContent('#client-id'))!.trim();
    const clientSecret = (await page.textContent('#client-secret'))!.trim();
    expect(clientId).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(clientSecret).toMatch(/^[A-Za-z0-9]{48}$/);
    // The copy buttons are revealed by the external script, which the CSP allows.
    await expect.poll(() => page.isVisible('button[data-copy="client-secret"]')).toBe(true);
    await page.reload();
    expect(await page.locator('#client-secret').count()).toBe(0);
    expect(scriptErrors).toEqual([]);
    await ownerContext.close();

    // A user of the new application, in a browser of their own.
    const user = await ts.createUser();
    const rp = await relyingParty(ts.url, { clientId, clientSecret, redirectUri: REDIRECT_URI, scopes: ['openid', 'email', 'profile'] });
    const start = await rp.start();
    const userContext = await browser.newContext({ locale: 'fr-FR' });
    const userPage = await userContext.newPage();
    // The application's own server does not exist: the browser's request to its callback is what counts.
    await userPage.route('https://app.example.org/**', (route) => route.abort());
    const arrival = userPage.waitForRequest((request) => request.url().startsWith(`${REDIRECT_URI}?`));
    await userPage.goto(start.url);
    await userPage.fill('#email', user.email);
    await userPage.fill('#password', user.password);
    await userPage.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await userPage.getByRole('button', { name: 'Autoriser' }).click();
    const callback = new URL((await arrival).url());

    const tokens = await rp.redeem(callback, start);
    expect(tokens.claims()).toMatchObject({ iss: ts.url, aud: clientId, sub: expect.any(String) });
    const info = await userinfo(ts.url, tokens.access_token);
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ email: user.email, first_name: user.firstName });
    await userContext.close();
  });
});

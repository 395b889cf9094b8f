// FedCM in a real Chromium: an application on https://rp.test signs a user of https://idp.test in through
// the browser's account chooser (driven through the DevTools FedCm domain), redeems the code with its
// verifier and reads userinfo. The first time asks consent in a pop-up (the service's consent page);
// the next time is one tap.
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, screenshotAt } from '../browser/chromium.ts';
import { pkcePair, startFedcmWorld, type FedcmWorld } from './fedcm-service.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { giveConsent } from './fedcm-cookie.ts';
import { redeem } from './idp-request.ts';
import { launchFedcmChromium } from './tls-hosts.ts';

let world: FedcmWorld;
let browser: Browser;
beforeAll(async () => {
  world = await startFedcmWorld();
  browser = await launchFedcmChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await world?.stop();
});

interface Chooser {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  dialogs: Array<{ dialogId: string; dialogType: string; accounts: unknown[] }>;
}

async function chooserIn(context: BrowserContext, page: Page): Promise<Chooser> {
  await page.goto(`${world.rpOrigin}/`);
  const cdp = await context.newCDPSession(page);
  const dialogs: Chooser['dialogs'] = [];
  cdp.on('FedCm.dialogShown', (event) => {
    dialogs.push(event as Chooser['dialogs'][number]);
  });
  await cdp.send('FedCm.enable', { disableRejectionDelay: true });
  return { context, page, cdp, dialogs };
}

/** A fresh browser context, French first as a user's phone in Dakar would be. */
const newContext = () => browser.newContext({ ignoreHTTPSErrors: true, viewport: PHONE, locale: 'fr-FR' });

async function signIn(page: Page): Promise<void> {
  await page.goto(`${world.issuer}/account`);
  await page.fill('#email', world.user.email);
  await page.fill('#password', world.user.password);
  await page.click('form[action$="/account/login"] button[type=submit]');
  await page.waitForURL(`${world.issuer}/account`);
}

/** A fresh browser context (no FedCM cooldown), signed in to the service on its account page. */
async function signedInChooser(): Promise<Chooser> {
  const context = await newContext();
  const page = await context.newPage();
  await signIn(page);
  return chooserIn(context, page);
}

/** The application's call; resolves with the code, or with the error's name. */
function askForCode(page: Page, challenge: string, client: { clientId: string; redirectUri: string } = world.client) {
  return page.evaluate(
    async ({ issuer, clientId, redirectUri, challenge }) => {
      try {
        const credential = (await navigator.credentials.get({
          identity: {
            providers: [
              {
                configURL: `${issuer}/fedcm/config.json`,
                clientId,
                params: { scope: 'openid email', redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' },
              },
            ],
          },
        } as CredentialRequestOptions)) as unknown as { token: string };
        return { code: credential.token };
      } catch (error) {
        return { error: `${(error as Error).name}: ${(error as Error).message}` };
      }
    },
    { issuer: world.issuer, clientId: client.clientId, redirectUri: client.redirectUri, challenge },
  );
}

/** The button mode: the call follows the user's click, and a signed-out browser opens the login URL at once. */
async function askForCodeOnClick(page: Page, challenge: string) {
  await page.evaluate(
    ({ issuer, clientId, redirectUri, challenge }) => {
      const button = document.getElementById('signin')!;
      const state = window as unknown as { fedcm?: Promise<{ code?: string; error?: string }> };
      button.addEventListener('click', () => {
        state.fedcm = (
          navigator.credentials.get({
            identity: {
              mode: 'active',
              providers: [
                {
                  configURL: `${issuer}/fedcm/config.json`,
                  clientId,
                  params: { scope: 'openid email', redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' },
                },
              ],
            },
          } as CredentialRequestOptions) as Promise<unknown> as Promise<{ token: string }>
        ).then(
          (credential) => ({ code: credential.token }),
          (error: Error) => ({ error: `${error.name}: ${error.message}` }),
        );
      });
    },
    { issuer: world.issuer, clientId: world.client.clientId, redirectUri: world.client.redirectUri, challenge },
  );
  await page.click('#signin');
  return () => page.evaluate(() => (window as unknown as { fedcm: Promise<{ code?: string; error?: string }> }).fedcm);
}

async function waitForDialog(chooser: Chooser, index: number, tries = 200) {
  for (let i = 0; i < tries && chooser.dialogs.length <= index; i += 1) await new Promise((r) => setTimeout(r, 50));
  const dialog = chooser.dialogs[index];
  if (!dialog) throw new Error('the account chooser was not shown');
  return dialog;
}

/** The first use asks consent in the pop-up; the code redeems to the redirect flow's sub; then one tap. */
async function consentThenOneTap(shot: string): Promise<void> {
  const chooser = await signedInChooser();
  const first = pkcePair();
  const answer = askForCode(chooser.page, first.challenge);
  const dialog = await waitForDialog(chooser, 0);
  expect(dialog.accounts).toHaveLength(1);
  const popUp = chooser.context.waitForEvent('page');
  await chooser.cdp.send('FedCm.selectAccount', { dialogId: dialog.dialogId, accountIndex: 0 });
  const consent = await popUp;
  await consent.waitForLoadState();
  await consent.setViewportSize(PHONE);
  // The service's own consent page, in French, at a phone's size.
  expect(consent.url()).toContain('/interaction/');
  expect(await consent.locator('html').getAttribute('lang')).toBe('fr');
  expect(await consent.locator('button.button.primary').innerText()).toMatch(/autoriser/i);
  await screenshotAt(consent, shot);
  await consent.click('button.button.primary');
  const result = await answer;
  expect(result.code, JSON.stringify(result)).toBeTruthy();
  const { token, userinfo } = await redeem(world, result.code!, first.verifier);
  expect(token.status, token.text).toBe(200);
  expect(userinfo?.status).toBe(200);
  const fedcmSub = userinfo!.json.sub;

  // The redirect flow gives the same application the same sub (consent is remembered now: no page).
  const redirect = pkcePair();
  const authorize = new URL(`${world.issuer}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: world.client.clientId,
    redirect_uri: world.client.redirectUri,
    scope: 'openid email',
    code_challenge: redirect.challenge,
    code_challenge_method: 'S256',
    state: 'redirect-flow',
  }).toString();
  await chooser.page.goto(authorize.href);
  await chooser.page.waitForURL((url) => url.href.startsWith(world.client.redirectUri));
  const callback = new URL(chooser.page.url());
  const viaRedirect = await redeem(world, callback.searchParams.get('code')!, redirect.verifier);
  expect(viaRedirect.userinfo?.json.sub).toBe(fedcmSub);

  // One tap: the grant exists, the chooser's choice is the code, no pop-up.
  await chooser.page.goto(`${world.rpOrigin}/`);
  await chooser.cdp.send('FedCm.enable', { disableRejectionDelay: true });
  const second = pkcePair();
  const again = askForCode(chooser.page, second.challenge);
  const dialogAgain = await waitForDialog(chooser, 1);
  let popUps = 0;
  chooser.context.on('page', () => (popUps += 1));
  await chooser.cdp.send('FedCm.selectAccount', { dialogId: dialogAgain.dialogId, accountIndex: 0 });
  const secondResult = await again;
  expect(secondResult.code, JSON.stringify(secondResult)).toBeTruthy();
  expect(popUps).toBe(0);
  const redeemed = await redeem(world, secondResult.code!, second.verifier);
  expect(redeemed.userinfo?.json.sub).toBe(fedcmSub);
  await chooser.context.close();
}

describe('FedCM sign-in in Chromium', () => {
  it(
    'asks consent in a pop-up the first time, then gives a code the application redeems; the next time is one tap',
    () => consentThenOneTap('fedcm-consent-popup-phone'),
    60_000,
  );

  it('refusing in the pop-up gives the application an error and no code', async () => {
    const client = await world.service.context.clients.create({
      name: 'Seconde application',
      description: 'Pour le refus',
      appType: 'web',
      redirectUris: [`${world.rpOrigin}/autre`],
      scopes: ['openid', 'email'],
    });
    const chooser = await signedInChooser();
    const answer = askForCode(chooser.page, pkcePair().challenge, {
      clientId: client.client.clientId,
      redirectUri: `${world.rpOrigin}/autre`,
    });
    const dialog = await waitForDialog(chooser, 0);
    const popUp = chooser.context.waitForEvent('page');
    await chooser.cdp.send('FedCm.selectAccount', { dialogId: dialog.dialogId, accountIndex: 0 });
    const consent = await popUp;
    await consent.waitForLoadState();
    await screenshotAt(consent, 'fedcm-consent-popup-refuse-phone');
    await consent.click('button.button.secondary[form=consent-refuse]');
    const result = await answer;
    expect(result.code).toBeUndefined();
    expect(result.error).toBeTruthy();
    expect(await world.service.context.consents.latest(world.user.id, client.client.clientId)).toBeUndefined();
    await chooser.context.close();
  }, 60_000);

  it('signed out: the chooser opens the login page in a pop-up, then continues to the account', async () => {
    // Consent given before (as in the first case): after the login pop-up, the code comes at once.
    await giveConsent(world, world.client.clientId);
    const context = await newContext();
    const page = await context.newPage();
    const chooser = await chooserIn(context, page);
    const pair = pkcePair();
    const popUp = context.waitForEvent('page');
    const answer = await askForCodeOnClick(chooser.page, pair.challenge);
    const login = await popUp;
    await login.waitForLoadState();
    expect(login.url()).toContain('/interaction/');
    await login.fill('input[name=email]', world.user.email);
    await login.fill('input[name=password]', world.user.password);
    await login.click('button.button.primary');
    // The pop-up closes itself; the browser asks the accounts again and shows the chooser.
    const dialog = await waitForDialog(chooser, 0).catch(async (error) => {
      throw new Error(`${error}: ${world.idpRequests.slice(-8).join(' | ')}`);
    });
    expect(dialog.dialogType).toBe('AccountChooser');
    await chooser.cdp.send('FedCm.selectAccount', { dialogId: dialog.dialogId, accountIndex: 0 });
    const result = await answer();
    expect(result.code, JSON.stringify(result)).toBeTruthy();
    const { userinfo } = await redeem(world, result.code!, pair.verifier);
    expect(userinfo?.json.email).toBe(world.user.email);
    await context.close();
  }, 60_000);

  it('sign-out says Set-Login: logged-out, and the chooser no longer offers the account', async () => {
    const chooser = await signedInChooser();
    await chooser.page.goto(`${world.issuer}/account`);
    const signOut = chooser.page.waitForResponse((response) => response.url().endsWith('/account/sign-out'));
    await chooser.page.click('form[action$="/account/sign-out"] button');
    const response = await signOut;
    expect(response.headers()['set-login']).toBe('logged-out');
    expect((await response.headerValue('set-cookie')) ?? '').toMatch(/signin\.fedcm=;/);
    const after = await chooserIn(chooser.context, chooser.page);
    const result = await askForCode(after.page, pkcePair().challenge);
    expect(result.code).toBeUndefined();
    expect(after.dialogs.filter((d) => d.dialogType === 'AccountChooser')).toHaveLength(0);
    await chooser.context.close();
  }, 60_000);
});

describe('FedCM sign-in in Chromium, on Postgres + Redis', () => {
  let embedded: FedcmWorld;
  let postgres: FreshPostgres;
  let redis: FreshRedis;
  beforeAll(async () => {
    embedded = world;
    postgres = await freshPostgres();
    redis = await freshRedis();
    world = await startFedcmWorld({ storage: { kind: 'postgres', postgres: { url: postgres.url }, redis: redis.config } });
  }, 60_000);
  afterAll(async () => {
    await world.stop();
    world = embedded;
    await redis.cleanup();
    await postgres.drop();
  });

  it(
    'asks consent in the pop-up, then one tap; the code redeems to the redirect flow’s sub',
    () => consentThenOneTap('fedcm-consent-popup-phone-postgres'),
    60_000,
  );
});

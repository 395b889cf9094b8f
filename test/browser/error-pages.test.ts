// No dead end, in a real browser: every error page a person can meet offers a way on, and following it
// leads somewhere that works. An expired or used password-reset link leads to the form that sends a new
// one; an unknown application, an unregistered return address and an expired page lead to the account
// page; a sign-in required by prompt=none leads to signing in; the outage page to a retry that works once
// the store is back; too many attempts to a new password. The sign-up form's error summary takes the
// focus and its links lead to the fields.
import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailTokenStore } from '../../src/accounts/email-tokens.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { freePort, postgresStorage, sharedConfig, startInstance, teardown, type Instance } from '../storage/helpers/instance.ts';
import { relayFor, type Relay } from '../storage/helpers/relay.ts';
import { launchChromium } from './chromium.ts';

let chromium: Browser;
let svc: TestService;
let client: TestClient;
let rp: RelyingParty;
let tokens: EmailTokenStore;
beforeAll(async () => {
  chromium = await launchChromium();
  svc = await startTestService({ rateLimit: { loginPerAccount: { points: 2, windowSeconds: 600 } } });
  client = await svc.createClient({ name: 'Marché de Cocody' });
  rp = await relyingParty(svc.url, client);
  tokens = new EmailTokenStore(svc.service.context.db);
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
});

async function frenchPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.newContext({ locale: 'fr-FR' });
  return { context, page: await context.newPage() };
}

/** The links and buttons that lead on from an error page (its `ways` block), as their visible names. */
async function waysOn(page: Page): Promise<string[]> {
  return page.locator('.ways a, .ways button').allInnerTexts();
}

const authorizeUrl = (clientId: string, redirectUri: string, extra: Record<string, string> = {}) =>
  `${svc.url}/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    state: 'etat-1',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  })}`;

describe('error pages in a browser', () => {
  it('lead an expired and a used reset link to a new link: the forgot form, empty', async () => {
    const user = await svc.createUser();
    const expired = await tokens.issue(user.id, 'reset-password', -60);
    const used = await tokens.issue(user.id, 'reset-password', 3600);
    await tokens.consume(used, 'reset-password');
    const { context, page } = await frenchPage();
    for (const token of [expired, used]) {
      const answer = await page.goto(`${svc.url}/password/reset?token=${token}`);
      expect(answer?.status()).toBe(400);
      await page.getByRole('heading', { name: 'Lien non valide' }).waitFor();
      expect(await waysOn(page)).toEqual(['Recevoir un nouveau lien', 'Mon compte']);
      await page.locator('.ways').getByRole('link', { name: 'Recevoir un nouveau lien' }).click();
      await page.getByRole('heading', { name: 'Mot de passe oublié' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/password/forgot');
      // Prefilled with nothing: whose link it was is not carried over.
      expect(await page.getByLabel(/^Adresse e.mail$/).inputValue()).toBe('');
      await page.getByLabel(/^Adresse e.mail$/).fill(user.email);
      await page.getByRole('button', { name: 'Envoyer le lien' }).click();
      await page.getByRole('heading', { name: /Consultez vos e.mails/ }).waitFor();
    }
    await context.close();
  });

  it('lead an unknown application, an unregistered return address and an expired page to the account page', async () => {
    const { context, page } = await frenchPage();
    const cases: Array<[string, string]> = [
      [authorizeUrl('application-inconnue', client.redirectUri), 'Application inconnue'],
      [authorizeUrl(client.clientId, 'https://ailleurs.example.net/cb'), 'Adresse de retour non reconnue'],
      [`${svc.url}/interaction/page-qui-a-expire`, 'Page expirée'],
    ];
    for (const [url, title] of cases) {
      await page.goto(url);
      await page.getByRole('heading', { name: title }).waitFor();
      expect(await waysOn(page), title).toEqual(['Mon compte']);
      // Nothing on the page leads to the address the request named (the language links carry it encoded).
      expect(await page.locator('a[href*="://ailleurs"], form[action*="://ailleurs"]').count(), title).toBe(0);
      await page.locator('.ways').getByRole('link', { name: 'Mon compte' }).click();
      await page.getByRole('heading', { name: 'Mon compte', exact: true }).waitFor();
      expect(await page.getByLabel('Mot de passe').count(), title).toBe(1);
    }
    await context.close();
  });

  it('lead a sign-in required by prompt=none (an application no operator verified) to signing in', async () => {
    const owner = await svc.createUser();
    const { client: unverified } = await svc.service.context.clients.create({
      name: 'Application du portail',
      description: 'Enregistrée par un développeur',
      appType: 'web',
      redirectUris: ['https://portail-app.example.net/cb'],
      scopes: ['openid', 'email'],
      ownerId: owner.id,
    });
    const { context, page } = await frenchPage();
    await page.goto(authorizeUrl(unverified.clientId, 'https://portail-app.example.net/cb', { prompt: 'none' }));
    await page.getByRole('heading', { name: 'Connexion requise' }).waitFor();
    expect(await waysOn(page)).toEqual(['Se connecter']);
    expect(await page.locator('a[href*="://portail-app"], form[action*="://portail-app"]').count()).toBe(0);
    await page.locator('.ways').getByRole('link', { name: 'Se connecter' }).click();
    await page.getByLabel(/^Adresse e.mail$/).fill(owner.email);
    await page.getByLabel('Mot de passe').fill(owner.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('heading', { name: 'Mon compte', exact: true }).waitFor();
    await context.close();
  });

  it('lead too many sign-in attempts to choosing a new password', async () => {
    const user = await svc.createUser();
    const { context, page } = await frenchPage();
    await page.goto((await rp.start()).url);
    for (let i = 0; i < 3; i += 1) {
      await page.getByLabel(/^Adresse e.mail$/).fill(user.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill('pas le bon mot de passe');
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.getByRole('alert').waitFor();
    }
    await page.getByText('Trop de tentatives de connexion').waitFor();
    const onward = page.getByRole('alert').getByRole('link', { name: /Choisir un nouveau mot de passe/ });
    await onward.click();
    await page.getByRole('heading', { name: 'Mot de passe oublié' }).waitFor();
    await context.close();
  });

  it('focus the sign-up form’s error summary, whose links lead to the fields', async () => {
    const { context, page } = await frenchPage();
    await page.goto((await rp.start()).url);
    await page.getByRole('link', { name: 'Créer un compte' }).click();
    await page.getByLabel(/^Adresse e.mail$/).fill('pas-une-adresse');
    await page.getByLabel('Nom d’utilisateur').fill(`awa_${Date.now()}`);
    await page.getByLabel('Prénom').fill('Awa');
    await page.getByLabel('Mot de passe', { exact: true }).fill('court');
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    const summary = page.locator('#error-summary');
    await summary.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
    expect(await summary.getByRole('heading').innerText()).toMatch(/^2\s?erreurs à corriger$/);
    expect(await summary.getByRole('link').allInnerTexts()).toEqual([
      'Cette adresse e\u2011mail est incomplète ou mal écrite\u00a0: elle doit ressembler à nom@exemple.fr.',
      'Ce mot de passe est trop court.',
    ]);
    await summary.getByRole('link', { name: 'Ce mot de passe est trop court.' }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await context.close();
  });
});

describe('the outage page in a browser', () => {
  let pg: FreshPostgres | undefined;
  let relay: Relay | undefined;
  let instance: Instance | undefined;
  beforeAll(async () => {
    pg = await freshPostgres();
    const through = await relayFor(pg.url, 5432);
    relay = through.relay;
    const port = await freePort();
    instance = await startInstance(sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(through.url, undefined, 1000)), port);
  });
  afterAll(() =>
    teardown(
      () => instance?.stop(),
      () => relay?.close(),
      () => pg?.drop(),
    ),
  );

  it('offers a retry that works once the store is back, and the account page', async () => {
    const { context, page } = await frenchPage();
    await relay!.cut();
    const answer = await page.goto(`${instance!.url}/password/reset?token=${'x'.repeat(43)}`);
    expect(answer?.status()).toBe(503);
    await page.getByRole('heading', { name: 'Service momentanément indisponible' }).waitFor();
    expect(await waysOn(page)).toEqual(['Réessayer', 'Mon compte']);
    await relay!.restore();
    await page.locator('.ways').getByRole('link', { name: 'Réessayer' }).click();
    // The same request again, answered: that link does not work either, and says how to get a new one.
    await page.getByRole('heading', { name: 'Lien non valide' }).waitFor();
    expect(await waysOn(page)).toEqual(['Recevoir un nouveau lien', 'Mon compte']);
    await context.close();
  });
});

// In Chromium: choosing the `server` type hides the fields a server application does not have (redirect
// URIs, scopes), without any script; its page then leads to a new secret through the confirmation page.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser/chromium.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('portal in a real browser: a server application', { timeout: 90_000 }, () => {
  let ts: TestService;
  let smtp: SmtpSink;
  let browser: Browser | undefined;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ts = await startTestService({ mail: smtp.mailConfig() });
  });
  afterAll(async () => {
    await browser?.close();
    await ts?.stop();
    await smtp?.stop();
  });

  it('asks no redirect URI once `server` is chosen, and rotates its secret only after the confirmation page', async () => {
    browser = await launchChromium();
    const owner = await ts.createUser();
    const context = await browser.newContext({ locale: 'fr-FR', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${ts.url}/portal/login`);
    await page.fill('#email', owner.email);
    await page.fill('#password', owner.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect.poll(() => page.url()).toBe(`${ts.url}/portal/`);

    await page.goto(`${ts.url}/portal/apps/new`);
    expect(await page.isVisible('#redirect_uris')).toBe(true);
    await page.selectOption('#app_type', 'server');
    expect(await page.isVisible('#redirect_uris')).toBe(false);
    expect(await page.isVisible('#scope-profile')).toBe(false);
    await page.selectOption('#app_type', 'mobile');
    expect(await page.isVisible('#redirect_uris')).toBe(true);
    await page.selectOption('#app_type', 'server');

    await page.fill('#name', 'Synchronisation');
    await page.fill('#description', 'Copie les commandes chaque nuit');
    await page.getByRole('button', { name: 'Enregistrer l’application' }).click();
    await expect.poll(() => page.url()).toMatch(/\/portal\/apps\/[A-Za-z0-9]{32}$/);
    const clientId = (await page.textContent('#client-id'))!.trim();
    const first = (await page.textContent('#client-secret'))!.trim();
    expect(await page.textContent('#help-client-credentials')).toContain('grant_type=client_credentials');

    await page.getByRole('link', { name: 'Générer un nouveau secret' }).click();
    await expect.poll(() => page.url()).toBe(`${ts.url}/portal/apps/${clientId}/rotate-secret`);
    expect(await page.textContent('[role="alert"]')).toContain('Une fois l’ancien secret arrêté, toute demande qui l’envoie sera refusée');
    // The old secret stops at once unless the owner picks an overlap.
    expect(await page.isChecked('input[name="overlap"][value="none"]')).toBe(true);
    // Nothing changed yet: the registry still holds the first secret's hash.
    const before = (await ts.service.context.clients.get(clientId))!.secretHash;
    await page.getByRole('button', { name: 'Oui, générer un nouveau secret' }).click();
    await expect.poll(() => page.url()).toBe(`${ts.url}/portal/apps/${clientId}`);
    const second = (await page.textContent('#client-secret'))!.trim();
    expect(second).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(second).not.toBe(first);
    expect((await ts.service.context.clients.get(clientId))!.secretHash).not.toBe(before);
    expect((await smtp.next(owner.email)).subject).toBe('Nouveau secret pour votre application Synchronisation');
    await context.close();
  });
});

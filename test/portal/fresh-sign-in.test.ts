// Generating a new client secret and deleting an application ask for a sign-in at most 5 minutes old, or
// the password again: a portal session older than that gets the password form first; a wrong password is
// refused with a clear message and changes nothing; the right one goes on (the new secret shown once, the
// owner told by e-mail, the action logged) and counts as a fresh sign-in for 5 minutes. A fresh session
// goes straight through. The clock is moved with Date, which the engine session and the portal read.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { LogCapture } from '../security-log/capture.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

const MINUTE = 60_000;

let ts: TestService;
let smtp: SmtpSink;
let log: LogCapture;
beforeAll(async () => {
  smtp = await startSmtpSink();
  log = new LogCapture();
  ts = await startTestService({ mail: smtp.mailConfig(), log: { level: 'info', pretty: false } }, { logDestination: log.destination });
});
afterAll(async () => {
  await ts?.stop();
  await smtp?.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the service's clock (Date) `minutes` ahead of where it is now. */
function clockAhead(minutes: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(now + minutes * MINUTE));
}

const secretHashOf = async (clientId: string) => (await ts.service.context.clients.get(clientId))?.secretHash;
const passwordField = /<input id="password" name="password" type="password" autocomplete="current-password"/;

/** The confirmation page of an action and its form's token. */
async function confirmation(owner: Owner, path: string) {
  const page = await get(owner, path);
  expect(page.status).toBe(200);
  return { page, csrf: csrfOf(page.text) };
}

describe('a new client secret', () => {
  it('goes straight through for a fresh sign-in', async () => {
    const owner = await signInToPortal(ts);
    const app = await registerApp(owner);
    const { page, csrf } = await confirmation(owner, `/apps/${app.clientId}/rotate-secret`);
    expect(page.text).not.toMatch(passwordField);
    const rotated = await post(owner, `/apps/${app.clientId}/rotate-secret`, {}, csrf);
    expect(rotated.status).toBe(303);
    expect((await get(owner, `/apps/${app.clientId}`)).text).toMatch(/id="client-secret">[A-Za-z0-9]{48}</);
  });

  it('asks for the password after 5 minutes: none or a wrong one changes nothing, the right one rotates', async () => {
    const owner = await signInToPortal(ts);
    const app = await registerApp(owner);
    const before = await secretHashOf(app.clientId);
    clockAhead(6);

    const { page, csrf } = await confirmation(owner, `/apps/${app.clientId}/rotate-secret`);
    expect(page.text).toMatch(passwordField);
    expect(page.text).toContain('Votre connexion date de plus de 5\u00a0minutes');

    // A post without the password (a page opened before the 5 minutes ran out) gets the form.
    const without = await post(owner, `/apps/${app.clientId}/rotate-secret`, {}, csrf);
    expect(without.status).toBe(403);
    expect(without.text).toMatch(passwordField);
    expect(without.text).toContain('Saisissez votre mot de passe pour continuer. Rien n’a été modifié.');
    expect(await secretHashOf(app.clientId)).toBe(before);

    const wrong = await post(owner, `/apps/${app.clientId}/rotate-secret`, { password: 'not the password' }, csrf);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/id="password-error" role="alert">Mot de passe incorrect\. Rien n’a été modifié\.</);
    expect(wrong.text).toMatch(/aria-invalid="true"/);
    expect(await secretHashOf(app.clientId)).toBe(before);
    expect(log.find('sign_in.failure', { source: 'portal', account_id: owner.id, reason: 'wrong_current_password' })).toHaveLength(1);
    expect(log.find('application.secret_rotated', { client_id: app.clientId })).toHaveLength(0);

    const right = await post(owner, `/apps/${app.clientId}/rotate-secret`, { password: owner.password }, csrf);
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe(`/portal/apps/${app.clientId}`);
    expect(await secretHashOf(app.clientId)).not.toBe(before);
    // The new secret, shown once.
    const shown = await get(owner, `/apps/${app.clientId}`);
    expect(shown.text).toMatch(/id="client-secret">[A-Za-z0-9]{48}</);
    expect((await get(owner, `/apps/${app.clientId}`)).text).not.toMatch(/id="client-secret">/);
    // Logged and e-mailed as before.
    log.one('application.secret_rotated', { client_id: app.clientId, account_id: owner.id, source: 'portal' });
    expect((await smtp.next(owner.email)).subject).toContain('Nouveau secret');

    // The password just typed counts as a fresh sign-in: the next action goes through without it.
    const again = await confirmation(owner, `/apps/${app.clientId}/rotate-secret`);
    expect(again.page.text).not.toMatch(passwordField);
    expect((await post(owner, `/apps/${app.clientId}/rotate-secret`, {}, again.csrf)).status).toBe(303);
  });
});

describe('deleting an application', () => {
  it('goes straight through for a fresh sign-in', async () => {
    const owner = await signInToPortal(ts);
    const app = await registerApp(owner);
    const { page, csrf } = await confirmation(owner, `/apps/${app.clientId}/delete`);
    expect(page.text).not.toMatch(passwordField);
    const deleted = await post(owner, `/apps/${app.clientId}/delete`, {}, csrf);
    expect(deleted.status).toBe(303);
    expect(await ts.service.context.clients.get(app.clientId)).toBeUndefined();
  });

  it('asks for the password after 5 minutes: none or a wrong one keeps the application, the right one deletes it', async () => {
    const owner = await signInToPortal(ts, { 'Accept-Language': 'en' });
    const app = await registerApp(owner);
    clockAhead(6);

    const { page, csrf } = await confirmation(owner, `/apps/${app.clientId}/delete`);
    expect(page.text).toMatch(passwordField);
    expect(page.text).toContain('You signed in more than 5 minutes ago');

    const without = await post(owner, `/apps/${app.clientId}/delete`, {}, csrf);
    expect(without.status).toBe(403);
    expect(without.text).toContain('Enter your password to go on. Nothing has been changed.');
    const wrong = await post(owner, `/apps/${app.clientId}/delete`, { password: 'not the password' }, csrf);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Wrong password. Nothing has been changed.');
    expect(await ts.service.context.clients.get(app.clientId)).toBeDefined();
    expect(log.find('application.deleted', { client_id: app.clientId })).toHaveLength(0);

    const right = await post(owner, `/apps/${app.clientId}/delete`, { password: owner.password }, csrf);
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/portal/');
    expect(await ts.service.context.clients.get(app.clientId)).toBeUndefined();
    log.one('application.deleted', { client_id: app.clientId, account_id: owner.id, source: 'portal' });
    expect((await smtp.next(owner.email)).subject).toMatch(/was deleted/);
  });

  it('asks again once the password typed in the portal is more than 5 minutes old', async () => {
    const owner = await signInToPortal(ts);
    const first = await registerApp(owner);
    const second = await registerApp(owner);
    clockAhead(6);
    const { csrf } = await confirmation(owner, `/apps/${first.clientId}/delete`);
    expect((await post(owner, `/apps/${first.clientId}/delete`, { password: owner.password }, csrf)).status).toBe(303);
    vi.useRealTimers();
    clockAhead(12);
    expect((await post(owner, `/apps/${second.clientId}/delete`, {}, csrf)).status).toBe(403);
    expect(await ts.service.context.clients.get(second.clientId)).toBeDefined();
  });
});

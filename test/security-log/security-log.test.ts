// The security log of the running service: every event of the list, driven through real HTTP requests
// (a browser for the pages, raw form posts as an application sends them), read back from the service's
// logger through a capturing pino destination. Each event gives one JSON line with its fields, every
// line carries the request id, and none of the passwords, secrets, codes, tokens, cookies and e-mail
// addresses the test used appears anywhere in the output.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { VALID_APP, csrfOf as portalCsrf, get as portalGet, post as portalPost, registerApp, signInToPortal } from '../portal/support.ts';
import { newUser, openSignup, submitSignup } from '../signup/journey.ts';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { authorize, exchangeCode, postForm } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { LogCapture, Sensitive } from './capture.ts';

const log = new LogCapture();
const used = new Sensitive();
let svc: TestService;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  svc = await startTestService(
    {
      // Each scenario comes from its own address (X-Forwarded-For, believed from one trusted proxy),
      // which is how its lines are told apart from the others'.
      trustProxy: true,
      mail: smtp.mailConfig(),
      log: { level: 'info', pretty: false },
      rateLimit: {
        loginPerAccount: { points: 2, windowSeconds: 600 },
        mailPerAddress: { points: 1, windowSeconds: 600 },
        clientAuthPerClient: { points: 2, windowSeconds: 600 },
      },
    },
    { logDestination: log.destination },
  );
});
afterAll(async () => {
  await svc?.stop();
  await smtp?.stop();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip, accept: 'application/json' });
const browserFrom = (ip: string) => new Browser(svc.url, { 'X-Forwarded-For': ip });
const csrfOf = (page: Page) => page.html.match(/name="csrf" value="([^"]+)"/)![1];

async function newClient(): Promise<TestClient> {
  const client = await svc.createClient();
  used.add(client.clientSecret);
  return client;
}

async function newUserAccount() {
  const user = await svc.createUser();
  used.add(user.email, user.password);
  return user;
}

async function open(browser: Browser, url: string): Promise<Page> {
  const page = await browser.open(url);
  if (!isPage(page)) throw new Error(`left the service for ${page.href}`);
  used.addFrom(page.html);
  return page;
}

async function submit(browser: Browser, page: Page, action: RegExp, fields: Record<string, string | string[]>): Promise<Page> {
  const next = await browser.submit(page, action, fields);
  if (!isPage(next)) throw new Error(`left the service for ${next.href}`);
  used.addFrom(next.html);
  return next;
}

function refresh(client: TestClient, refreshToken: string, ip: string) {
  return postForm(
    `${svc.url}/oauth/token`,
    { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId, client_secret: client.clientSecret },
    from(ip),
  );
}

describe('security log', () => {
  it('logs a sign-in, the consent, a reused authorization code and the grant it revoked', async () => {
    const ip = '198.51.100.1';
    const user = await newUserAccount();
    const client = await newClient();
    const browser = browserFrom(ip);
    const flow = await authorize(svc.url, await relyingParty(svc.url, client), user, { browser });
    const tokens = await exchangeCode(svc.url, client, flow, {}, from(ip));
    expect(tokens.status).toBe(200);
    const again = await exchangeCode(svc.url, client, flow, {}, from(ip));
    expect([again.status, again.json.error]).toEqual([400, 'invalid_grant']);
    used.add(
      flow.callback.searchParams.get('code'),
      flow.start.verifier,
      ...['access_token', 'refresh_token', 'id_token'].map((k) => String(tokens.json[k])),
    );
    used.addCookies(browser);

    const signIn = log.one('sign_in.success', { ip });
    expect(signIn).toMatchObject({
      level: 'info',
      outcome: 'success',
      account_id: user.id,
      source: 'interaction',
      email_domain: 'example.org',
    });
    const consent = log.one('consent.given', { ip });
    expect(consent).toMatchObject({
      outcome: 'success',
      account_id: user.id,
      client_id: client.clientId,
      scopes: ['openid', 'email', 'profile'],
    });
    expect(consent.grant_id).toEqual(expect.any(String));
    const reuse = log.one('authorization_code.reuse', { ip });
    expect(reuse).toMatchObject({ level: 'warn', outcome: 'failure', client_id: client.clientId, grant_id: consent.grant_id });
    expect(log.one('grant.revoked', { grant_id: consent.grant_id })).toMatchObject({
      ip,
      client_id: client.clientId,
      reason: 'authorization_code_reuse',
    });
  });

  it('logs a replayed refresh token and the grant it revoked', async () => {
    const ip = '198.51.100.2';
    const user = await newUserAccount();
    const client = await newClient();
    const browser = browserFrom(ip);
    const flow = await authorize(svc.url, await relyingParty(svc.url, client), user, { browser });
    const first = await exchangeCode(svc.url, client, flow, {}, from(ip));
    const rt1 = String(first.json.refresh_token);
    const second = await refresh(client, rt1, ip);
    const third = await refresh(client, String(second.json.refresh_token), ip);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    // RT1 is two rotations old: its replay is a theft.
    const replay = await refresh(client, rt1, ip);
    expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant']);
    for (const response of [first, second, third])
      used.add(String(response.json.access_token), String(response.json.refresh_token), String(response.json.id_token));
    used.add(flow.callback.searchParams.get('code'), flow.start.verifier);
    used.addCookies(browser);

    const { grant_id: grantId } = log.one('consent.given', { ip });
    expect(log.one('refresh_token.reuse', { ip })).toMatchObject({
      outcome: 'failure',
      client_id: client.clientId,
      account_id: user.id,
      grant_id: grantId,
    });
    expect(log.one('grant.revoked', { grant_id: grantId })).toMatchObject({
      ip,
      client_id: client.clientId,
      reason: 'refresh_token_reuse',
    });
  });

  it('logs failed sign-ins and the throttling that follows, naming the address by its domain only', async () => {
    const ip = '198.51.100.3';
    const user = await newUserAccount();
    const browser = browserFrom(ip);
    const login = await open(browser, (await (await relyingParty(svc.url, await newClient())).start()).url);
    for (const password of ['pas le bon mot de passe', 'toujours pas le bon']) {
      used.add(password);
      expect((await submit(browser, login, /\/login$/, { email: user.email, password })).status).toBe(400);
    }
    expect((await submit(browser, login, /\/login$/, { email: user.email, password: user.password })).status).toBe(429);
    used.addCookies(browser);

    const failures = log.find('sign_in.failure', { ip });
    expect(failures).toHaveLength(2);
    for (const line of failures)
      expect(line).toMatchObject({
        level: 'warn',
        outcome: 'failure',
        reason: 'invalid_credentials',
        email_domain: 'example.org',
        source: 'interaction',
      });
    expect(log.one('sign_in.throttled', { ip })).toMatchObject({ outcome: 'blocked', limit: 'login', retry_after: expect.any(Number) });
  });

  it('logs failed client authentications and their throttling', async () => {
    const ip = '198.51.100.4';
    const client = await newClient();
    const token = (secret: string) =>
      postForm(
        `${svc.url}/oauth/token`,
        { grant_type: 'refresh_token', refresh_token: 'x', client_id: client.clientId, client_secret: secret },
        from(ip),
      );
    used.add('mauvais-secret-numero-un', 'mauvais-secret-numero-deux');
    expect((await token('mauvais-secret-numero-un')).status).toBe(401);
    expect((await token('mauvais-secret-numero-deux')).status).toBe(401);
    expect((await token(client.clientSecret)).status).toBe(429);

    const failures = log.find('client_auth.failure', { ip });
    expect(failures).toHaveLength(2);
    for (const line of failures) {
      expect(line).toMatchObject({
        level: 'warn',
        outcome: 'failure',
        client_id: client.clientId,
        endpoint: '/oauth/token',
        reason: 'invalid_client_secret',
      });
    }
    expect(log.one('client_auth.throttled', { ip })).toMatchObject({
      outcome: 'blocked',
      client_id: client.clientId,
      limit: 'clientAuthPerClient',
    });
  });

  it('logs a sign-up, the e-mail verified, the mail throttling and the password reset', async () => {
    const ip = '198.51.100.5';
    const person = newUser();
    used.add(person.email, person.password, person.username);
    const browser = browserFrom(ip);
    const { form } = await openSignup(browser, await relyingParty(svc.url, await newClient()));
    await submitSignup(browser, form, person);
    const created = log.one('account.created', { ip });
    expect(created).toMatchObject({ outcome: 'success', email_domain: 'example.org', source: 'interaction' });

    const verification = await smtp.next(person.email);
    used.add(new URL(verification.link).searchParams.get('token'));
    const confirm = await open(browser, verification.link);
    await submit(browser, confirm, /\/email\/verify$/, {
      csrf: csrfOf(confirm),
      token: new URL(verification.link).searchParams.get('token')!,
    });
    expect(log.one('email.verified', { ip })).toMatchObject({ account_id: created.account_id, reason: 'verification_link' });

    const forgot = await open(browser, '/password/forgot');
    await submit(browser, forgot, /\/password\/forgot$/, { csrf: csrfOf(forgot), email: person.email, return: '/account' });
    await submit(browser, forgot, /\/password\/forgot$/, { csrf: csrfOf(forgot), email: person.email, return: '/account' });
    expect(log.one('mail.throttled', { ip })).toMatchObject({
      outcome: 'blocked',
      account_id: created.account_id,
      email_domain: 'example.org',
    });

    const reset = await smtp.next(person.email);
    const resetToken = new URL(reset.link).searchParams.get('token')!;
    used.add(resetToken, 'une nouvelle phrase bien secrète');
    const resetForm = await open(browser, reset.link);
    const done = await submit(browser, resetForm, /\/password\/reset$/, {
      csrf: csrfOf(resetForm),
      token: resetToken,
      password: 'une nouvelle phrase bien secrète',
    });
    expect(done.status).toBe(200);
    expect(log.one('password.reset', { ip })).toMatchObject({ outcome: 'success', account_id: created.account_id });
    used.addCookies(browser);
  });

  it('logs the account page: sign-in, a wrong current password, consent revoked, password changed, forgery refused, sessions ended', async () => {
    const ip = '198.51.100.6';
    const user = await newUserAccount();
    const client = await newClient();
    const browser = browserFrom(ip);
    await authorize(svc.url, await relyingParty(svc.url, client), user, { browser });

    let page = await open(browser, '/account');
    page = await submit(browser, page, /\/account\/revoke$/, { csrf: csrfOf(page), client_id: client.clientId });
    expect(log.one('consent.revoked', { ip })).toMatchObject({ account_id: user.id, client_id: client.clientId, source: 'account_page' });

    used.add('ce n’est pas le mien', 'une phrase toute neuve et longue');
    await submit(browser, page, /\/account\/password$/, {
      csrf: csrfOf(page),
      current_password: 'ce n’est pas le mien',
      new_password: 'une phrase toute neuve et longue',
    });
    expect(log.one('sign_in.failure', { ip })).toMatchObject({
      account_id: user.id,
      reason: 'wrong_current_password',
      source: 'account_page',
    });
    page = await submit(browser, page, /\/account\/password$/, {
      csrf: csrfOf(page),
      current_password: user.password,
      new_password: 'une phrase toute neuve et longue',
    });
    expect(log.one('password.changed', { ip })).toMatchObject({ outcome: 'success', account_id: user.id });

    const forged = await browser.agent
      .post('/account/sessions/end')
      .set(from(ip))
      .type('form')
      .send({ csrf: 'x'.repeat(43) });
    expect(forged.status).toBe(403);
    expect(log.one('anti_forgery.rejected', { ip })).toMatchObject({
      outcome: 'blocked',
      endpoint: '/account/sessions/end',
      reason: 'token_mismatch',
    });

    used.addCookies(browser);
    await submit(browser, page, /\/account\/sessions\/end$/, { csrf: csrfOf(page) });
    expect(log.one('session.ended_everywhere', { ip })).toMatchObject({ outcome: 'success', account_id: user.id });

    // The page's own sign-in form.
    const laptopIp = '198.51.100.16';
    const laptop = browserFrom(laptopIp);
    const form = await open(laptop, '/account');
    await submit(laptop, form, /\/account\/login$/, {
      csrf: csrfOf(form),
      email: user.email,
      password: 'une phrase toute neuve et longue',
    });
    expect(log.one('sign_in.success', { ip: laptopIp })).toMatchObject({ account_id: user.id, source: 'account_page' });
    used.addCookies(laptop);
  });

  it('logs the developer portal: application created, changed, secret rotated, deleted', async () => {
    const ip = '198.51.100.7';
    const owner = await signInToPortal(svc, { 'Accept-Language': 'fr', 'X-Forwarded-For': ip });
    used.add(owner.email, owner.password);
    const csrf = portalCsrf(owner.home.html);
    const app = await registerApp(owner);
    used.add(csrf, app.clientSecret);
    expect((await portalPost(owner, `/apps/${app.clientId}`, { ...VALID_APP, name: 'Un autre nom' }, csrf)).status).toBe(303);
    expect((await portalPost(owner, `/apps/${app.clientId}/rotate-secret`, {}, csrf)).status).toBe(303);
    used.add(/id="client-secret">([A-Za-z0-9]{48})</.exec((await portalGet(owner, `/apps/${app.clientId}`)).text)?.[1]);
    expect((await portalPost(owner, `/apps/${app.clientId}/delete`, {}, csrf)).status).toBe(303);
    used.addCookies(owner.browser);

    const fields = { ip, client_id: app.clientId, account_id: owner.id, source: 'portal', outcome: 'success' };
    for (const event of ['application.created', 'application.changed', 'application.secret_rotated', 'application.deleted'])
      expect(log.one(event, { ip })).toMatchObject(fields);
  });

  it('logs unexpected errors with their stack, in the pages and in the engine, and shows the client none of it', async () => {
    const ip = '198.51.100.8';
    const db = svc.service.context.db;
    const browser = browserFrom(ip);
    const forgot = await open(browser, '/password/forgot');
    // A table gone from under the service: a failure no code path expects.
    await db.query('ALTER TABLE email_tokens RENAME TO email_tokens_hidden');
    try {
      const res = await browser.agent
        .post('/email/verify')
        .set(from(ip))
        .set('accept', 'text/html')
        .type('form')
        .send({ csrf: csrfOf(forgot), token: 't'.repeat(43) });
      expect(res.status).toBe(500);
      expect(res.text).not.toMatch(/email_tokens|\bat \S+:\d+/);
    } finally {
      await db.query('ALTER TABLE email_tokens_hidden RENAME TO email_tokens');
    }
    const page = log.one('error.unexpected', { ip, endpoint: '/email/verify' });
    expect(page).toMatchObject({ level: 'error', outcome: 'failure', source: 'interaction' });
    expect((page.err as { stack: string }).stack).toMatch(/email_tokens[\s\S]*\n\s+at /);

    const token = randomBytes(32).toString('base64url');
    await db.query('ALTER TABLE oidc_models RENAME TO oidc_models_hidden');
    try {
      const res = await fetch(`${svc.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}`, ...from(ip) } });
      expect(res.status).toBe(500);
      expect(await res.text()).not.toMatch(/oidc_models|\bat \S+:\d+/);
    } finally {
      await db.query('ALTER TABLE oidc_models_hidden RENAME TO oidc_models');
    }
    const engine = log.one('error.unexpected', { ip, endpoint: '/oauth/userinfo' });
    expect(engine).toMatchObject({ level: 'error', source: 'engine' });
    expect((engine.err as { stack: string }).stack).toMatch(/oidc_models[\s\S]*\n\s+at /);
  });

  it('puts the event, time, outcome and request id on every line, and none of the values it used', () => {
    // The request log's lines (test/request-log) share the logger; this checks the events' lines.
    const lines = log.lines().filter((line) => line.msg !== 'request');
    expect(lines.length).toBeGreaterThan(30);
    for (const line of lines) {
      expect(line.event, JSON.stringify(line)).toEqual(expect.any(String));
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(['success', 'failure', 'blocked']).toContain(line.outcome);
      expect(line.request_id).toEqual(expect.any(String));
      expect(line.ip).toEqual(expect.any(String));
    }
    used.expectAbsentFrom(log.text.join(''));
    // Not even part of an address: only its domain.
    expect(log.text.join('')).not.toMatch(/[\w.+-]+@example\.org/);
  });
});

// /metrics on the service's port, behind its bearer token: scraped after a sign-in, a code exchange,
// a refresh and a replayed refresh token, it counts each with the labels an operator graphs by, and
// names routes by their pattern, never by a path carrying an id.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage } from '../support/browser.ts';
import { authorize, exchangeCode, refreshGrant } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { sample, scrape } from './scrape.ts';

const token = randomBytes(32).toString('base64url');
let svc: TestService;

beforeAll(async () => {
  // No reuse grace: a refresh token presented twice is a reuse at once.
  // Two refused passwords per account, then the account's sign-ins are throttled.
  svc = await startTestService({
    metrics: { bearerToken: token },
    ttl: { refreshTokenReuseGrace: 0 },
    rateLimit: { loginPerAccount: { points: 2, windowSeconds: 600 } },
  });
});
afterAll(async () => {
  await svc?.stop();
});

describe('/metrics behind a bearer token', () => {
  it('refuses a scrape without the token, or with another one', async () => {
    const none = await scrape(`${svc.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('signin_');
    const wrong = await scrape(`${svc.url}/metrics`, `${token.slice(0, -1)}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('signin_');
  });

  it('counts a sign-in, a code exchange, a refresh and a reuse, with their labels', async () => {
    const before = (await scrape(`${svc.url}/metrics`, token)).text;
    const client = await svc.createClient();
    const flow = await authorize(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    const exchanged = await exchangeCode(svc.url, client, flow);
    expect(exchanged.status).toBe(200);
    const refreshToken = exchanged.json.refresh_token as string;
    expect((await refreshGrant(svc.url, client, refreshToken)).status).toBe(200);
    expect((await refreshGrant(svc.url, client, refreshToken)).json.error).toBe('invalid_grant');

    const after = await scrape(`${svc.url}/metrics`, token);
    expect(after.status).toBe(200);
    expect(after.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after.text, name, labels) - sample(before, name, labels);

    expect(delta('signin_sign_ins_total', { outcome: 'success' })).toBe(1);
    expect(delta('signin_tokens_issued_total', { grant_type: 'authorization_code' })).toBe(1);
    expect(delta('signin_tokens_issued_total', { grant_type: 'refresh_token' })).toBe(1);
    expect(delta('signin_token_reuse_total', { kind: 'refresh_token' })).toBe(1);
    expect(delta('signin_http_requests_total', { method: 'POST', route: '/oauth/token', status: '200' })).toBe(2);
    expect(delta('signin_http_requests_total', { method: 'POST', route: '/oauth/token', status: '400' })).toBe(1);
    expect(delta('signin_http_request_duration_seconds_count', { method: 'POST', route: '/oauth/token' })).toBe(3);
    expect(delta('signin_http_requests_total', { method: 'POST', route: '/interaction/:uid/login', status: '303' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(delta('signin_http_requests_total', { method: 'GET', route: '/oauth/authorize', status: '303' })).toBeGreaterThanOrEqual(1);

    // Process metrics and the hashing queue (idle now) are there too.
    expect(after.text).toMatch(/^signin_process_cpu_user_seconds_total \d/m);
    expect(after.text).toMatch(/^signin_password_hashing_queue_length 0$/m);
    // Routes are patterns: the interaction's uid, the code and the tokens appear nowhere.
    const uid = /\/interaction\/([^/?]+)/.exec(flow.pages[0].url)?.[1];
    expect(uid).toBeDefined();
    for (const value of [uid, flow.callback.searchParams.get('code'), refreshToken, exchanged.json.access_token as string]) {
      if (value) expect(after.text).not.toContain(value);
    }
  });

  it('counts refused passwords, then the sign-ins past the limit as throttled', async () => {
    const before = (await scrape(`${svc.url}/metrics`, token)).text;
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const browser = new Browser(svc.url);
    let page = await browser.open((await rp.start()).url);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      if (!isPage(page)) throw new Error('the login page should be shown again');
      page = await browser.submit(page, /\/login$/, { email: user.email, password: 'not the password at all' });
    }
    const after = (await scrape(`${svc.url}/metrics`, token)).text;
    const delta = (outcome: string) =>
      sample(after, 'signin_sign_ins_total', { outcome }) - sample(before, 'signin_sign_ins_total', { outcome });
    expect(delta('failure')).toBe(2);
    expect(delta('throttled')).toBe(2);
    expect(delta('success')).toBe(0);
  });
});

// Brute-force protection: failed logins limited per account and per client IP, counters shared through
// the storage (SQL here, Redis below), a spoofed X-Forwarded-For ignored unless the proxy is trusted,
// the same localized answer for registered and unknown addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { freshRedis, type FreshRedis } from '../support/databases.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { proxyHops } from '../../src/http/proxy.ts';

const limits = { loginPerAccount: { points: 3, windowSeconds: 600 }, loginPerIp: { points: 8, windowSeconds: 600 } };
// The account tests all come from 127.0.0.1: a roomy per-IP limit keeps it out of their way.
const accountLimits = { ...limits, loginPerIp: { points: 100, windowSeconds: 600 } };

async function loginPage(svc: TestService, headers: Record<string, string> = {}, params: Record<string, string> = {}) {
  const browser = new Browser(svc.url, headers);
  const rp = await relyingParty(svc.url, await svc.createClient());
  const page = await browser.open((await rp.start(params)).url);
  if (!isPage(page)) throw new Error('expected the login page');
  return { browser, page };
}

const attempt = (browser: Browser, page: Page, email: string, password: string) =>
  browser.submit(page, /\/login$/, { email, password }) as Promise<Page>;

/**
 * `count` wrong passwords, each for a different address (so only the per-IP counter can trip), each
 * with the X-Forwarded-For header `forwardedFor(i)`; the statuses answered.
 */
async function failedLoginsForwardedFor(svc: TestService, count: number, forwardedFor: (i: number) => string): Promise<number[]> {
  const { browser, page } = await loginPage(svc);
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const res = await browser.agent
      .post(`${new URL(page.url).pathname}/login`)
      .set('X-Forwarded-For', forwardedFor(i))
      .type('form')
      .send({ email: `forwarded${i}.${Date.now()}@example.org`, password: 'wrong password' });
    statuses.push(res.status);
  }
  return statuses;
}

describe('login rate limits (SQL counters)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ rateLimit: accountLimits });
  });
  afterAll(() => svc.stop());

  it('blocks an account after repeated failures, even with the right password, with a localized message', async () => {
    const user = await svc.createUser();
    const { browser, page } = await loginPage(svc);
    for (let i = 0; i < 3; i += 1) expect((await attempt(browser, page, user.email, 'wrong password')).status).toBe(400);
    const blocked = await attempt(browser, page, user.email, user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.html).toContain('Trop de tentatives de connexion');
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);

    const en = await loginPage(svc, {}, { ui_locales: 'en' });
    expect((await attempt(en.browser, en.page, user.email, user.password)).html).toContain('Too many sign-in attempts');
  });

  it('answers an unknown address exactly like a registered one (no enumeration)', async () => {
    const user = await svc.createUser();
    const { browser, page } = await loginPage(svc);
    const nobody = `nobody.${Date.now()}@example.org`;
    const seen: Array<[number, number]> = [];
    for (let i = 0; i < 4; i += 1) {
      const known = await attempt(browser, page, user.email, 'wrong password');
      const unknown = await attempt(browser, page, nobody, 'wrong password');
      seen.push([known.status, unknown.status]);
      expect(unknown.html.replace(/value="[^"]*@example\.org"/, '')).toBe(known.html.replace(/value="[^"]*@example\.org"/, ''));
    }
    expect(seen.map(([k]) => k)).toEqual([400, 400, 400, 429]);
    expect(seen.map(([, u]) => u)).toEqual([400, 400, 400, 429]);
  });

  it('counts every spelling that reaches an account on that account (İ lowercases differently in JS and SQL)', async () => {
    const user = await svc.createUser({ email: `alice.${Date.now()}@example.org` });
    const lookalike = user.email.replace('alice', 'al\u0130ce');
    // The look-alike does reach the account: SQL lower() folds İ to i, where JavaScript gives i + U+0307.
    expect((await svc.service.context.accounts.findByEmail(lookalike))?.id).toBe(user.id);
    const { browser, page } = await loginPage(svc);
    for (let i = 0; i < 3; i += 1) expect((await attempt(browser, page, user.email, 'wrong password')).status).toBe(400);
    const blocked = await attempt(browser, page, lookalike, user.password);
    expect(isPage(blocked) && blocked.status).toBe(429);
  });

  it('counts parallel attempts before checking any password: no more than the limit get an answer', async () => {
    const user = await svc.createUser();
    const { browser, page } = await loginPage(svc);
    const answers = await Promise.all(Array.from({ length: 10 }, () => attempt(browser, page, user.email, 'wrong password')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(3);
  });

  it('keeps the counters in SQL, keyed by a hash (no e-mail address stored)', async () => {
    const rows = await svc.service.context.db.query<{ key: string }>('SELECT key FROM rate_limits');
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(rows.rows.every((r) => !r.key.includes('@'))).toBe(true);
  });
});

describe('per-IP limit and X-Forwarded-For', () => {
  it('is not bypassed by a spoofed X-Forwarded-For when the proxy is not trusted', async () => {
    const svc = await startTestService({ rateLimit: limits, trustProxy: false });
    try {
      const statuses = await failedLoginsForwardedFor(svc, 9, (i) => `203.0.113.${i + 1}`);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 429]);
    } finally {
      await svc.stop();
    }
  });

  it('uses X-Forwarded-For when the proxy is trusted', async () => {
    const svc = await startTestService({ rateLimit: limits, trustProxy: true });
    try {
      const statuses = await failedLoginsForwardedFor(svc, 9, (i) => `203.0.113.${i + 1}`);
      expect(statuses.every((s) => s === 400)).toBe(true);
    } finally {
      await svc.stop();
    }
  });

  it('behind a trusted proxy, counts the address it appended, whatever the client put in front', async () => {
    const svc = await startTestService({ rateLimit: { ...limits, loginPerIp: { points: 4, windowSeconds: 600 } }, trustProxy: true });
    try {
      const statuses = await failedLoginsForwardedFor(svc, 6, (i) => `10.9.${i}.1, 198.51.100.7`);
      expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    } finally {
      await svc.stop();
    }
  });

  it('reads the number of trusted proxies from the config', () => {
    expect(proxyHops({ trustProxy: false })).toBe(0);
    expect(proxyHops({ trustProxy: true })).toBe(1);
    expect(proxyHops({ trustProxy: 2 })).toBe(2);
  });
});

describe('login rate limits (Redis counters)', () => {
  let svc: TestService;
  let redis: FreshRedis;
  beforeAll(async () => {
    redis = await freshRedis();
    svc = await startTestService({ rateLimit: accountLimits, storage: { kind: 'embedded', dataDir: 'memory://', redis: redis.config } });
  });
  afterAll(async () => {
    await svc.stop();
    await redis.cleanup();
  });

  it('counts in Redis under the configured prefix, shared by every instance', async () => {
    const user = await svc.createUser();
    const { browser, page } = await loginPage(svc);
    for (let i = 0; i < 3; i += 1) await attempt(browser, page, user.email, 'wrong password');
    expect((await attempt(browser, page, user.email, user.password)).status).toBe(429);
    const keys = Object.keys(await redis.dump()).filter((k) => k.includes('rl:login'));
    expect(keys.some((k) => k.startsWith(`${redis.keyPrefix}rl:login-account`))).toBe(true);
    expect(keys.every((k) => !k.includes('@'))).toBe(true);
    const rows = await svc.service.context.db.query('SELECT 1 FROM rate_limits');
    expect(rows.rowCount).toBe(0);
  });
});

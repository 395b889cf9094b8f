// The account page's two password forms (its own sign-in and the password change) are behind the same
// brute-force limits as the login page, and say so the same way: 429, Retry-After, and the wait in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

// Three failures per account; a roomy per-IP limit, since every test comes from 127.0.0.1.
const rateLimit = { loginPerAccount: { points: 3, windowSeconds: 600 }, loginPerIp: { points: 100, windowSeconds: 600 } };

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ rateLimit });
});
afterAll(() => svc.stop());

const csrfOf = (page: Page) => page.html.match(/name="csrf" value="([^"]+)"/)![1];

async function accountPage(browser: Browser): Promise<Page> {
  const page = await browser.open('/account');
  if (!isPage(page)) throw new Error('expected a page');
  return page;
}

describe('account page attempt limits', () => {
  it('answers the sign-in form over the limit with 429, Retry-After and the localized message', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    const form = await accountPage(browser);
    const signIn = (password: string) =>
      browser.submit(form, /\/account\/login$/, { csrf: csrfOf(form), email: user.email, password }) as Promise<Page>;
    for (let i = 0; i < 3; i += 1) expect((await signIn('not the password')).status).toBe(400);
    const blocked = await signIn(user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.html).toContain('Trop de tentatives de connexion');
    expect(blocked.html).not.toContain(`Connecté avec ${user.email}`);
  });

  it('answers the password change over the limit the same way, and keeps the password', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    const form = await accountPage(browser);
    const page = (await browser.submit(form, /\/account\/login$/, {
      csrf: csrfOf(form),
      email: user.email,
      password: user.password,
    })) as Page;
    expect(page.html).toContain(`Connecté avec ${user.email}`);
    const change = (current: string) =>
      browser.submit(page, /\/account\/password$/, {
        csrf: csrfOf(page),
        current_password: current,
        new_password: 'une toute nouvelle phrase',
      }) as Promise<Page>;
    for (let i = 0; i < 3; i += 1) expect((await change('not the password')).status).toBe(400);
    const blocked = await change(user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.html).toContain('Trop de tentatives de connexion');
    expect(await svc.service.context.accounts.authenticate(user.email, user.password)).toBeDefined();
  });
});

// Shared phones: "Se déconnecter" ends this device's session only, "Rester connecté" decides whether the
// session cookie outlives the browser, the account page lists the signed-in devices and ends any one
// of them (in Redis, where sessions live here), and "Se déconnecter partout" ends them all with the
// applications' grants. A session is not a grant: ending one device leaves the applications their tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountSessionStore } from '../../src/accounts/sessions.ts';
import { isPage, type Browser, type Page } from '../support/browser.ts';
import { freshRedis, type FreshRedis } from '../support/databases.ts';
import { refreshGrant } from '../support/flow.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { csrfOf, submitForm } from './account-browser.ts';
import { accountSignIn, appSignIn, CHROME_ANDROID, device, FIREFOX_WINDOWS, sessionCookies } from './session-cookies.ts';

let svc: TestService;
let redis: FreshRedis;
let sessionCookie: string;
beforeAll(async () => {
  redis = await freshRedis();
  svc = await startTestService({ storage: { kind: 'embedded', dataDir: 'memory://', redis: redis.config } });
  sessionCookie = svc.service.context.provider.cookieName('session');
});
afterAll(async () => {
  await svc?.stop();
  await redis?.cleanup();
});

async function accountPage(browser: Browser): Promise<Page> {
  const page = await browser.open('/account');
  if (!isPage(page)) throw new Error('expected a page');
  return page;
}
const signedIn = (page: Page) => !/action="\/account\/login"/.test(page.html) && /action="\/account\/sign-out"/.test(page.html);

/** Signs in to an application (consent included) and redeems its tokens. */
async function appTokens(browser: Browser, rp: RelyingParty, user: { email: string; password: string }, remember = false) {
  const start = await rp.start();
  const walk = await appSignIn(browser, start.url, user, remember);
  if (!(walk.end instanceof URL)) throw new Error(`did not reach the application: ${walk.end.html.slice(0, 500)}`);
  return { walk, tokens: await rp.redeem(walk.end, start) };
}

async function sessionsInRedis(accountId: string): Promise<number> {
  return Object.entries(await redis.dump()).filter(([k, v]) => k.includes('Session') && v.includes(accountId)).length;
}

describe('Rester connecté', () => {
  it('unticked, the account page signs in with a browser-session cookie: no Expires, no Max-Age', async () => {
    const user = await svc.createUser();
    const walk = await accountSignIn(device(svc.url, CHROME_ANDROID), user, false);
    const set = sessionCookies(walk, sessionCookie);
    expect(set.length).toBeGreaterThan(0);
    for (const cookie of set) expect(cookie).not.toMatch(/expires=|max-age=/i);
  });

  it('ticked, the account page signs in with a persistent cookie of the session lifetime', async () => {
    const user = await svc.createUser();
    const walk = await accountSignIn(device(svc.url, CHROME_ANDROID), user, true);
    const [cookie] = sessionCookies(walk, sessionCookie);
    const expires = Date.parse(/expires=([^;]+)/i.exec(cookie)![1]);
    expect(expires - Date.now()).toBeGreaterThan(svc.config.ttl.session * 1000 - 60_000);
  });

  it('the login page offers it unticked, and the session it opens follows the choice, consent and later answers included', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const login = await device(svc.url, CHROME_ANDROID).open((await rp.start()).url);
    expect(isPage(login) && login.html).toMatch(/<input type="checkbox" name="remember" value="yes"[^>]*>\s*Rester connecté/);
    expect(isPage(login) && login.html).not.toMatch(/name="remember"[^>]*checked/);

    const phone = device(svc.url, CHROME_ANDROID);
    const transient = await appTokens(phone, rp, user, false);
    const phoneCookies = sessionCookies(transient.walk, sessionCookie);
    expect(phoneCookies.length).toBeGreaterThan(0);
    for (const cookie of phoneCookies) expect(cookie).not.toMatch(/expires=|max-age=/i);
    // The engine keeps the cookie a browser-session one when it renews it on the next authorization.
    const again = await appSignIn(phone, (await rp.start()).url, user, false);
    for (const cookie of sessionCookies(again, sessionCookie)) expect(cookie).not.toMatch(/expires=/i);

    const laptop = device(svc.url, FIREFOX_WINDOWS);
    const kept = await appTokens(laptop, rp, user, true);
    const laptopCookies = sessionCookies(kept.walk, sessionCookie);
    expect(laptopCookies.length).toBeGreaterThan(0);
    for (const cookie of laptopCookies) expect(cookie).toMatch(/expires=/i);
  });
});

describe('signing out', () => {
  it('"Se déconnecter" ends this device only: the other stays signed in, and the applications keep their tokens', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const phone = device(svc.url, CHROME_ANDROID);
    const { tokens } = await appTokens(phone, rp, user);
    const laptop = device(svc.url, FIREFOX_WINDOWS);
    await accountSignIn(laptop, user, true);
    expect(await sessionsInRedis(user.id)).toBe(2);

    const page = await accountPage(phone);
    expect(signedIn(page)).toBe(true);
    const out = await submitForm(phone, page, /\/account\/sign-out$/, {});
    expect(out.html).toContain('Vous êtes déconnecté sur cet appareil.');
    expect(out.html).toMatch(/action="\/account\/login"/);
    expect(await sessionsInRedis(user.id)).toBe(1);

    expect(signedIn(await accountPage(laptop))).toBe(true);
    const refresh = await refreshGrant(svc.url, client, tokens.refresh_token!);
    expect(refresh.status).toBe(200);
  });

  it('"Se déconnecter partout" ends every session and every application\'s grant', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const phone = device(svc.url, CHROME_ANDROID);
    const { tokens } = await appTokens(phone, rp, user);
    const laptop = device(svc.url, FIREFOX_WINDOWS);
    await accountSignIn(laptop, user, true);

    const out = await submitForm(laptop, await accountPage(laptop), /\/account\/sessions\/end$/, {});
    expect(out.html).toContain('Toutes vos sessions sont fermées et les applications autorisées ont perdu leur accès.');
    expect(await sessionsInRedis(user.id)).toBe(0);
    expect(signedIn(await accountPage(phone))).toBe(false);
    const refresh = await refreshGrant(svc.url, client, tokens.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');
  });
});

describe('the list of signed-in devices', () => {
  it('names each device in plain words, marks this one, and ends another one wherever its session is stored', async () => {
    const user = await svc.createUser();
    const client: TestClient = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const phone = device(svc.url, CHROME_ANDROID);
    const { tokens } = await appTokens(phone, rp, user);
    const laptop = device(svc.url, FIREFOX_WINDOWS);
    await accountSignIn(laptop, user, true);

    const page = await accountPage(laptop);
    const list = page.html.slice(page.html.indexOf('id="sessions"'), page.html.indexOf('id="apps"'));
    expect(list).toMatch(/Appareils connectés<\/span> <span class="task-state">2 appareils</);
    expect(list).toMatch(/Firefox sur Windows <span class="tag">Cet appareil<\/span>/);
    expect(list).toContain('Chrome sur Android');
    expect(list).toMatch(/Dernière activité\u00a0: (maintenant|il y a \d+ minutes?)/);
    // No place: nothing but the device and its last use.
    expect(list).not.toMatch(/127\.0\.0\.1|Abidjan|Paris/);
    const forms = [...list.matchAll(/name="session" value="([^"]+)"/g)].map((m) => m[1]);
    expect(forms).toHaveLength(1); // this device signs out with "Se déconnecter"

    const after = await submitForm(laptop, page, /\/account\/sessions\/end-one$/, { session: forms[0] });
    expect(after.html).toContain('L’appareil a été déconnecté. Les applications autorisées gardent leur accès.');
    expect(after.html).toMatch(/<details class="task" name="task" id="sessions" open>/);
    expect(after.html).toMatch(/Appareils connectés<\/span> <span class="task-state">1 appareil</);
    expect(after.html).not.toContain('Chrome sur Android');
    expect(await sessionsInRedis(user.id)).toBe(1);
    // That device's next visit asks to sign in; its application keeps its refresh token.
    expect(signedIn(await accountPage(phone))).toBe(false);
    expect(signedIn(await accountPage(laptop))).toBe(true);
    expect((await refreshGrant(svc.url, client, tokens.refresh_token!)).status).toBe(200);
  });

  it("ends nothing of another account's, whatever session id is posted", async () => {
    const owner = await svc.createUser();
    const other = await svc.createUser();
    const phone = device(svc.url, CHROME_ANDROID);
    await accountSignIn(phone, owner, false);
    const [uid] = await new AccountSessionStore(svc.service.context.db).uidsOf(owner.id);
    const intruder = device(svc.url, FIREFOX_WINDOWS);
    await accountSignIn(intruder, other, false);
    const page = await accountPage(intruder);
    const posted = await intruder.agent
      .post('/account/sessions/end-one')
      .type('form')
      .send({ csrf: csrfOf(page), session: uid })
      .redirects(0);
    expect(posted.status).toBe(303);
    expect(signedIn(await accountPage(phone))).toBe(true);
    expect(await sessionsInRedis(owner.id)).toBe(1);
    // And a forged post without the anti-forgery token is refused.
    const forged = await intruder.agent
      .post('/account/sessions/end-one')
      .type('form')
      .send({ csrf: 'x'.repeat(43), session: uid });
    expect(forged.status).toBe(403);
  });

  it("writes a session's record and last use at most once per few minutes, not on every request", async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const phone = device(svc.url, CHROME_ANDROID);
    await appTokens(phone, rp, user);
    await accountPage(phone);
    const { db } = svc.service.context;
    const row = async () =>
      (
        await db.query<{ version: string; last_used_at: Date; device: string }>(
          'SELECT xmin::text AS version, last_used_at, device FROM account_sessions WHERE account_id = $1',
          [user.id],
        )
      ).rows[0];
    const before = await row();
    expect(before.device).toBe('Chrome/Android');
    // Authorizations (the engine saves the session on each) and visits of the account page.
    for (let i = 0; i < 3; i += 1) {
      await appSignIn(phone, (await rp.start()).url, user, false);
      await accountPage(phone);
    }
    const after = await row();
    expect(after.version).toBe(before.version);
    expect(after.last_used_at).toEqual(before.last_used_at);

    // Past the window, the next use is written.
    const store = new AccountSessionStore(db);
    const [uid] = await store.uidsOf(user.id);
    await db.query(`UPDATE account_sessions SET last_used_at = now() - interval '2 minutes' WHERE session_uid = $1`, [uid]);
    await store.seen(uid, user.id, { browser: 'Chrome', os: 'Android' });
    const recent = await row();
    expect(Date.now() - recent.last_used_at.getTime()).toBeGreaterThan(100_000);
    await db.query(`UPDATE account_sessions SET last_used_at = now() - interval '10 minutes' WHERE session_uid = $1`, [uid]);
    await store.seen(uid, user.id, { browser: 'Chrome', os: 'Android' });
    expect(Date.now() - (await row()).last_used_at.getTime()).toBeLessThan(60_000);
  });
});

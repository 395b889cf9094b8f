// No untracked session: every signed-in session is recorded for its account before it is saved, so a
// sign-in whose record cannot be written (Postgres cut right after the password was checked) fails
// with 503 instead of leaving a session in Redis that "sign out everywhere" would not find.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, formActions, isPage, type Page } from '../support/browser.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { signedInApp } from '../refresh/support.ts';
import {
  createClient,
  createUser,
  freePort,
  postgresStorage,
  sharedConfig,
  startInstance,
  teardown,
  type Instance,
} from './helpers/instance.ts';
import { waitUntilReady } from './helpers/outage.ts';
import { relayFor, type Relay } from './helpers/relay.ts';

let db: FreshPostgres;
let redis: FreshRedis;
let relay: Relay;
let instance: Instance;
beforeAll(async () => {
  db = await freshPostgres();
  redis = await freshRedis();
  const through = await relayFor(db.url, 5432);
  relay = through.relay;
  const port = await freePort();
  instance = await startInstance(sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(through.url, redis.config, 1000)), port);
});
afterAll(() =>
  teardown(
    () => instance?.stop(),
    () => relay?.close(),
    () => redis?.cleanup(),
    () => db?.drop(),
  ),
);

/** The uids of the account's sessions as Redis holds them. */
async function sessionsInRedis(accountId: string): Promise<string[]> {
  const uids: string[] = [];
  for (const [key, value] of Object.entries(await redis.dump())) {
    if (!/:Session:[^:]+$/.test(key)) continue;
    const payload = JSON.parse((JSON.parse(value) as { payload: string }).payload) as { uid: string; accountId?: string };
    if (payload.accountId === accountId) uids.push(payload.uid);
  }
  return uids.sort();
}

async function recordedSessions(accountId: string): Promise<string[]> {
  const res = await db.db.query<{ uid: string }>('SELECT session_uid AS uid FROM account_sessions WHERE account_id = $1 ORDER BY 1', [
    accountId,
  ]);
  return res.rows.map((r) => r.uid);
}

const csrfOf = (page: Page) => page.html.match(/name="csrf" value="([^"]+)"/)![1];

describe('session records across a Postgres outage', () => {
  it('a sign-in cut after its password check fails with 503, and "sign out everywhere" ends every session', async () => {
    const app = await signedInApp({
      url: instance.url,
      createUser: () => createUser(instance.service),
      createClient: () => createClient(instance.service),
    });
    await app.code(); // browser A signs in

    // Browser B signs in too; Postgres goes away between the login form and the authorization it resumes.
    const b = new Browser(instance.url);
    const login = await b.open((await app.rp.start()).url);
    if (!isPage(login)) throw new Error('expected the login page');
    const action = new URL(
      formActions(login.html).find((a) => /\/login$/.test(a))!,
      login.url,
    );
    const posted = await b.agent
      .post(action.pathname)
      .type('form')
      .send({ email: app.user.email, password: app.user.password })
      .redirects(0);
    expect(posted.status).toBe(303);
    await relay.cut();
    const resumed = await b.agent.get(new URL(posted.headers.location, action).pathname).set('accept', 'text/html').redirects(0);
    expect(resumed.status).toBe(503);
    expect(resumed.text).toContain('momentanément indisponible');
    await relay.restore();
    await waitUntilReady(instance.url);

    // Nothing half made: every session of the account in Redis is recorded, and B is not signed in.
    const inRedis = await sessionsInRedis(app.user.id);
    expect(inRedis).toHaveLength(1);
    expect(await recordedSessions(app.user.id)).toEqual(inRedis);
    const again = await b.open((await app.rp.start()).url);
    expect(isPage(again) && /name="password"/.test(again.html)).toBe(true);

    // Sign out everywhere, from the account page of a third browser.
    const c = new Browser(instance.url);
    const form = (await c.open('/account')) as Page;
    const account = (await c.submit(form, /\/account\/login$/, {
      csrf: csrfOf(form),
      email: app.user.email,
      password: app.user.password,
    })) as Page;
    await c.submit(account, /\/account\/sessions\/end$/, { csrf: csrfOf(account) });
    expect(await sessionsInRedis(app.user.id)).toEqual([]);
    const a = await app.browser.open((await app.rp.start()).url);
    expect(isPage(a) && /name="password"/.test(a.html)).toBe(true);
  });
});

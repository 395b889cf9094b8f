// A passkey sign-in refused, on both stores, each with its own line in the security log and a login page
// that says what to do: an assertion for another origin or relying-party id, a challenge used twice or
// expired, a passkey of another user, a counter that went back (a cloned authenticator), a passkey removed
// (whose page tells the browser to forget it). The right assertion signs in, with `amr: ["hwk"]` in the
// ID token, and counts as a sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogCapture } from '../security-log/capture.ts';
import { Browser, isPage } from '../support/browser.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { PasskeyStore } from '../../src/passkeys/store.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

const CHALLENGE_SECONDS = 2;

for (const store of ['embedded', 'postgres+redis'] as const) {
  describe(`passkey sign-in refusals (${store})`, () => {
    let svc: TestService;
    let rp: RelyingParty;
    let log: LogCapture;
    let passkeys: PasskeyStore;
    let pg: FreshPostgres | undefined;
    let redis: FreshRedis | undefined;

    beforeAll(async () => {
      log = new LogCapture();
      let storage;
      if (store === 'postgres+redis') {
        pg = await freshPostgres();
        redis = await freshRedis();
        storage = { kind: 'postgres' as const, postgres: { url: pg.url }, redis: redis.config };
      }
      svc = await startTestService(
        { log: { level: 'info', pretty: false }, passkeys: { timeoutSeconds: CHALLENGE_SECONDS }, ...(storage ? { storage } : {}) },
        { logDestination: log.destination, ...(storage ? { migrations: 'auto' as const } : {}) },
      );
      rp = await relyingParty(svc.url, await svc.createClient());
      passkeys = new PasskeyStore(svc.service.context.db);
    }, 60_000);
    afterAll(async () => {
      await svc?.stop();
      await pg?.drop();
      await redis?.cleanup();
    });

    /** A browser on the login page of a new authorization request, with a challenge issued for it. */
    async function loginPage() {
      const browser = new Browser(svc.url);
      const flow = await rp.start();
      const page = await browser.open(flow.url);
      if (!isPage(page)) throw new Error('no login page');
      const uid = new URL(page.url).pathname.split('/')[2];
      const options = await browser.agent.post(`/interaction/${uid}/passkey/options`).redirects(0);
      expect(options.status).toBe(200);
      expect(options.body).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required' });
      return { browser, flow, uid, challenge: options.body.challenge as string };
    }

    async function post(browser: Browser, uid: string, credential: string) {
      return browser.agent.post(`/interaction/${uid}/passkey`).type('form').send({ credential }).redirects(0);
    }

    const origin = () => new URL(svc.url).origin;

    it('signs in with the right assertion, to an ID token whose amr is hwk', async () => {
      const user = await svc.createUser();
      const key = new SoftAuthenticator(user.id);
      await key.register(passkeys);
      const { browser, flow, uid, challenge } = await loginPage();
      const res = await post(browser, uid, key.assert({ challenge, origin: origin(), rpId: '127.0.0.1', counter: 1 }));
      expect(res.status).toBe(303);
      // Consent, then the application: the code's ID token says how the user signed in.
      let step = await browser.open(new URL(res.headers.location, svc.url).href);
      if (isPage(step)) step = await browser.submit(step, /\/consent$/, { scope: ['openid', 'email', 'profile'] });
      expect(isPage(step)).toBe(false);
      const tokens = await rp.redeem(step as URL, flow);
      expect(tokens.claims()?.amr).toEqual(['hwk']);
      log.one('sign_in.success', { account_id: user.id, method: 'passkey' });
      expect((await passkeys.find(key.id))?.counter).toBe(1);
    });

    const refusals: Array<
      [string, (key: SoftAuthenticator, other: { id: string }) => Partial<Parameters<SoftAuthenticator['assert']>[0]>, string, RegExp]
    > = [
      ['another origin', () => ({ origin: 'https://evil.example' }), 'origin_mismatch', /n’a pas pu être vérifiée/],
      ['another relying-party id', () => ({ rpId: 'evil.example' }), 'rp_id_mismatch', /n’a pas pu être vérifiée/],
      ['a passkey of another user', (_key, other) => ({ userId: other.id }), 'wrong_user', /n’a pas pu être vérifiée/],
      ['a counter that went back', () => ({ counter: 3 }), 'counter_regressed', /n’a pas pu être vérifiée/],
    ];
    for (const [name, change, reason, message] of refusals) {
      it(`refuses ${name}, logged as ${reason}`, async () => {
        const user = await svc.createUser();
        const other = await svc.createUser();
        const key = new SoftAuthenticator(user.id);
        await key.register(passkeys, 5);
        const { browser, uid, challenge } = await loginPage();
        const res = await post(
          browser,
          uid,
          key.assert({ challenge, origin: origin(), rpId: '127.0.0.1', counter: 6, ...change(key, other) }),
        );
        expect(res.status).toBe(400);
        expect(res.text).toMatch(message);
        expect(res.text).toContain('name="password"');
        log.one('sign_in.failure', { method: 'passkey', reason });
        expect((await passkeys.find(key.id))?.counter).toBe(5);
      });
    }

    it('refuses a challenge used twice, logged as challenge_replayed', async () => {
      const user = await svc.createUser();
      const key = new SoftAuthenticator(user.id);
      await key.register(passkeys);
      const first = await loginPage();
      const assertion = key.assert({ challenge: first.challenge, origin: origin(), rpId: '127.0.0.1', counter: 1 });
      expect((await post(first.browser, first.uid, assertion)).status).toBe(303);
      // The same answer, captured and played in another sign-in.
      const second = await loginPage();
      const res = await post(second.browser, second.uid, assertion);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/a expiré ou a déjà servi/);
      log.one('sign_in.failure', { method: 'passkey', reason: 'challenge_replayed' });
    });

    it('refuses an expired challenge, logged as challenge_expired', async () => {
      const user = await svc.createUser();
      const key = new SoftAuthenticator(user.id);
      await key.register(passkeys);
      const { browser, uid, challenge } = await loginPage();
      await new Promise((resolve) => setTimeout(resolve, CHALLENGE_SECONDS * 1000 + 300));
      const res = await post(browser, uid, key.assert({ challenge, origin: origin(), rpId: '127.0.0.1', counter: 1 }));
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/a expiré ou a déjà servi/);
      log.one('sign_in.failure', { method: 'passkey', reason: 'challenge_expired', account_id: undefined });
    });

    it('refuses a removed passkey, and the page tells the browser to forget it', async () => {
      const user = await svc.createUser();
      const key = new SoftAuthenticator(user.id);
      await key.register(passkeys);
      await passkeys.remove(user.id, key.id);
      const { browser, uid, challenge } = await loginPage();
      const res = await post(browser, uid, key.assert({ challenge, origin: origin(), rpId: '127.0.0.1', counter: 1 }));
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/n’existe plus pour ce service/);
      expect(res.text).toContain(`data-unknown="[&#34;${key.id}&#34;]"`);
      expect(log.find('sign_in.failure', { method: 'passkey', reason: 'unknown_credential' }).length).toBeGreaterThan(0);
    });
  });
}

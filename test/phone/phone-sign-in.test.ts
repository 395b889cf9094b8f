// Sign-in with a phone number and a code, end to end, on both stores: a number added from the account page
// (with the password) and verified, then a sign-in with the number and the code the fake gateway received,
// an authorization code flow, and userinfo releasing the number with the `phone` scope. And what a code
// must never do: sign in after five wrong tries, once expired or used, during the cooling-off period, for
// a SIM the operator says was changed; change the e-mail address or the password on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../../adapters/sql/sweep.ts';
import { PhoneCodeStore } from '../../src/phone/code-store.ts';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { relyingParty } from '../support/relying-party.ts';
import { userinfo } from '../support/flow.ts';
import { signInToAccount, submitForm, csrfOf } from '../account/account-browser.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { startPhoneService, STORES, type PhoneTestService } from './phone-service.ts';

const NUMBER = '+2250707123456';

const page = (x: Page | URL): Page => {
  if (!isPage(x)) throw new Error(`expected a page, went to ${x.href}`);
  return x;
};

/** Adds and verifies `national` (Côte d'Ivoire) on the account signed in in `browser`. */
async function addNumber(t: PhoneTestService, browser: Browser, password: string, national = '07 07 12 34 56'): Promise<Page> {
  const phonePage = page(await browser.open('/account/phone'));
  const codePage = await submitForm(browser, phonePage, /\/account\/phone$/, {
    country: '+225',
    number: national,
    current_password: password,
  });
  expect(codePage.html).toContain('autocomplete="one-time-code"');
  return submitForm(browser, codePage, /\/account\/phone\/verify$/, { code: t.fake.codes().at(-1)! });
}

/** Starts an authorization, asks for a code for `national`, and returns the code page. */
async function askCode(t: PhoneTestService, browser: Browser, start: string, national = '07 07 12 34 56'): Promise<Page> {
  const login = page(await browser.open(start));
  expect(login.html).toContain('Recevoir un code par SMS');
  const numberPage = page(await browser.open(login.html.match(/href="([^"]*\/phone)"/)![1]));
  return page(await browser.submit(numberPage, /\/phone$/, { country: '+225', number: national }));
}

describe.each(STORES)('phone sign-in on the %s store', (store) => {
  let t: PhoneTestService;
  beforeAll(async () => {
    t = await startPhoneService(store);
  }, 60_000);
  afterAll(() => t?.stop());

  it('adds a number, signs in with its code, and userinfo returns the verified number with the phone scope', async () => {
    const user = await t.svc.createUser();
    const client = await t.svc.createClient({ scopes: ['openid', 'email', 'phone'] });
    const account = new Browser(t.svc.url);
    await signInToAccount(account, user);
    const added = await addNumber(t, account, user.password);
    expect(added.html).toContain('Numéro ajouté');
    expect(t.log.find('phone.added', { account_id: user.id })).toHaveLength(1);

    const rp = await relyingParty(t.svc.url, client);
    const start = await rp.start();
    const browser = new Browser(t.svc.url);
    const codePage = await askCode(t, browser, start.url);
    expect(codePage.html).toContain('autocomplete="one-time-code"');
    const sms = JSON.parse(t.fake.received.at(-1)!.body) as { to: string; text: string; code: string };
    expect(sms.to).toBe(NUMBER);
    // The WebOTP line closes the message: the host of the issuer, then the code.
    expect(sms.text.split('\n').at(-1)).toBe(`@127.0.0.1 #${sms.code}`);

    const consent = page(await browser.submit(codePage, /\/phone\/code$/, { code: sms.code }));
    expect(consent.html).toContain('+225 07 07 12');
    const back = await browser.submit(consent, /\/consent$/, { scope: ['openid', 'email', 'phone'] });
    expect(back).toBeInstanceOf(URL);
    const tokens = await rp.redeem(back as URL, start);
    const claims = tokens.claims()!;
    expect(claims.amr).toEqual(['sms']);
    const info = await userinfo(t.svc.url, tokens.access_token);
    expect(info.json.phone_number).toBe(NUMBER);
    expect(info.json.phone_number_verified).toBe(true);
    expect(t.log.find('sign_in.success', { account_id: user.id, method: 'sms' })).toHaveLength(1);
    // Neither the number nor the code is ever written to the log.
    expect(t.log.text.join('')).not.toContain(NUMBER.slice(4));
    expect(t.log.text.join('')).not.toContain(sms.code);

    // Signed in by the code alone, the session cannot move the address, the password or the number.
    await browser.open('/account');
    const accountPage = page(await browser.open('/account'));
    const email = await browser.submit(accountPage, /\/account\/email$/, { csrf: csrfOf(accountPage), new_email: 'thief@example.org' });
    expect(page(email).status).toBe(400);
    const password = await browser.submit(accountPage, /\/account\/password$/, {
      csrf: csrfOf(accountPage),
      new_password: 'an entirely new passphrase 42',
    });
    expect(page(password).status).toBe(400);
    const phone = page(await browser.open('/account/phone'));
    const replace = await browser.submit(phone, /\/account\/phone$/, { csrf: csrfOf(phone), country: '+221', number: '77 123 45 67' });
    expect(page(replace).status).toBe(400);
    const remove = await browser.submit(phone, /\/account\/phone\/remove$/, { csrf: csrfOf(phone) });
    expect(page(remove).status).toBe(400);
    expect((await t.svc.service.context.accounts.findById(user.id))!.email).toBe(user.email);
    expect((await t.svc.service.context.accounts.findById(user.id))!.phoneNumber).toBe(NUMBER);
    // The password reset is the e-mailed link's: a page without its token changes nothing.
    expect(page(await browser.open('/password/reset')).status).toBe(400);
  });

  it('refuses a code after five wrong tries, and a number on no account the same way', async () => {
    const user = await t.svc.createUser();
    const client = await t.svc.createClient();
    const account = new Browser(t.svc.url);
    await signInToAccount(account, user);
    await addNumber(t, account, user.password, '05 05 11 22 33');
    for (const national of ['05 05 11 22 33', '05 05 99 88 77']) {
      const rp = await relyingParty(t.svc.url, client);
      const browser = new Browser(t.svc.url);
      let codePage = await askCode(t, browser, (await rp.start()).url, national);
      const right = t.fake.codes().at(-1)!;
      for (let i = 4; i >= 1; i -= 1) {
        codePage = page(await browser.submit(codePage, /\/phone\/code$/, { code: '000000' === right ? '111111' : '000000' }));
        expect(codePage.status).toBe(400);
        expect(codePage.html).toContain(`Il vous reste ${i}`);
      }
      codePage = page(await browser.submit(codePage, /\/phone\/code$/, { code: '999999' === right ? '888888' : '999999' }));
      expect(codePage.html).toContain('Trop d’essais');
      // The right code, now: refused, and no form to try again.
      const after = await t.svc.service.storage.db.query('SELECT tries FROM phone_codes WHERE tries >= 5');
      expect(after.rowCount).toBeGreaterThan(0);
      expect(codePage.html).not.toContain('name="code"');
    }
  });

  it('a right code for a disabled account signs nobody in', async () => {
    const user = await t.svc.createUser();
    await t.svc.service.storage.db.query(
      `UPDATE accounts SET phone_number = '+2250707333333', phone_verified_at = now(), disabled_at = now() WHERE id = $1`,
      [user.id],
    );
    const rp = await relyingParty(t.svc.url, await t.svc.createClient());
    const browser = new Browser(t.svc.url);
    const codePage = await askCode(t, browser, (await rp.start()).url, '07 07 33 33 33');
    const refused = page(await browser.submit(codePage, /\/phone\/code$/, { code: t.fake.codes().at(-1)! }));
    expect(refused.status).toBe(403);
    expect(t.log.find('sign_in.success', { account_id: user.id })).toHaveLength(0);
  });

  it('refuses an expired code and a code used once already', async () => {
    const { db } = t.svc.service.storage;
    const codes = new PhoneCodeStore(db, t.svc.config.secrets.cookieKeys);
    const issued = { holder: 'sign_in:test-expired', phoneNumber: NUMBER, accountId: null, channel: 'sms' as const };
    const code = (await codes.issue(issued, { send: true }))!;
    await db.query(`UPDATE phone_codes SET expires_at = now() - interval '1 second' WHERE id = $1`, [issued.holder]);
    expect(await codes.check(issued.holder, code)).toEqual({ ok: false, reason: 'expired' });
    // The housekeeping sweep takes it away.
    await sweepExpired(db);
    expect((await db.query('SELECT 1 FROM phone_codes WHERE id = $1', [issued.holder])).rowCount).toBe(0);

    const reused = { ...issued, holder: 'sign_in:test-reused' };
    const second = (await codes.issue(reused, { send: true }))!;
    expect((await codes.check(reused.holder, second)).ok).toBe(true);
    expect(await codes.check(reused.holder, second)).toEqual({ ok: false, reason: 'used' });
    // Only an HMAC of the code is kept.
    const stored = await db.query<{ code_hash: string }>('SELECT code_hash FROM phone_codes WHERE id = $1', [reused.holder]);
    expect(stored.rows[0].code_hash).not.toContain(second);
  });

  it('refuses a right code for a number the SIM-swap check flags', async () => {
    const user = await t.svc.createUser();
    const account = new Browser(t.svc.url);
    await signInToAccount(account, user);
    await addNumber(t, account, user.password, '01 01 44 55 66');
    const rp = await relyingParty(t.svc.url, await t.svc.createClient());
    const browser = new Browser(t.svc.url);
    const codePage = await askCode(t, browser, (await rp.start()).url, '01 01 44 55 66');
    t.fake.simSwapped = true;
    try {
      const refused = page(await browser.submit(codePage, /\/phone\/code$/, { code: t.fake.codes().at(-1)! }));
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('carte SIM');
    } finally {
      t.fake.simSwapped = false;
    }
    const check = t.fake.received.filter((r) => r.path.endsWith('/check')).at(-1)!;
    expect(check.method).toBe('POST');
    expect(check.path).toBe('/camara/sim-swap/v0/check');
    expect(check.headers.authorization).toBe('Bearer camara-token');
    expect(JSON.parse(check.body)).toEqual({ phoneNumber: '+2250101445566', maxAge: 72 });
    expect(t.log.find('phone.sign_in_refused', { account_id: user.id, reason: 'sim_swapped' })).toHaveLength(1);
  });
});

describe('a new number in its cooling-off period', () => {
  let t: PhoneTestService;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startPhoneService('embedded', { coolingOffHours: 72 }, { mail: smtp.mailConfig() });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  it('does not sign in alone, and the e-mail address is told at once', async () => {
    const user = await t.svc.createUser();
    const account = new Browser(t.svc.url);
    await signInToAccount(account, user);
    const added = await addNumber(t, account, user.password, '07 07 00 11 22');
    expect(added.html).toContain('UTC');
    const notice = await smtp.next(user.email);
    expect(notice.subject).toBe('Un numéro de téléphone a été ajouté à votre compte');
    expect(notice.text).toContain('+225 07 07 00');
    expect(notice.text).toContain('/account/phone');
    const rp = await relyingParty(t.svc.url, await t.svc.createClient());
    const browser = new Browser(t.svc.url);
    const codePage = await askCode(t, browser, (await rp.start()).url, '07 07 00 11 22');
    const refused = page(await browser.submit(codePage, /\/phone\/code$/, { code: t.fake.codes().at(-1)! }));
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('moins de 72');
    expect(t.log.find('phone.sign_in_refused', { account_id: user.id, reason: 'cooling_off' })).toHaveLength(1);
  });
});

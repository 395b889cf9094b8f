// SMS pumping: past the per-number, per-range and daily-budget limits no message leaves; the budget's
// exhaustion is logged and counted in the metrics; a number outside the allowed countries is refused; a
// gateway that fails is a page and a log line, never a 500. On both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startPhoneService, STORES, type PhoneTestService } from './phone-service.ts';

const METRICS_TOKEN = 'metrics-bearer-token-0123456789abcdef';

const page = (x: Page | URL): Page => {
  if (!isPage(x)) throw new Error(`expected a page, went to ${x.href}`);
  return x;
};

describe.each(STORES)('phone codes on the %s store', (store) => {
  let t: PhoneTestService;
  beforeAll(async () => {
    t = await startPhoneService(
      store,
      { limits: { perNumber: { points: 2 }, perPrefix: { points: 3 }, perIp: { points: 50 } }, dailyBudget: 7 },
      { metrics: { bearerToken: METRICS_TOKEN } },
    );
  }, 60_000);
  afterAll(() => t?.stop());

  /** Asks for a code for `e164`'s national part from a fresh sign-in; the page answered. */
  async function ask(national: string, country = '+225'): Promise<Page> {
    const rp = await relyingParty(t.svc.url, await t.svc.createClient());
    const browser = new Browser(t.svc.url);
    const login = page(await browser.open((await rp.start()).url));
    const form = page(await browser.open(login.html.match(/href="([^"]*\/phone)"/)![1]));
    return page(await browser.submit(form, /\/phone$/, { country, number: national }));
  }

  async function withNumber(e164: string): Promise<void> {
    const user = await t.svc.createUser();
    await t.svc.service.storage.db.query('UPDATE accounts SET phone_number = $2, phone_verified_at = now() WHERE id = $1', [user.id, e164]);
  }

  const sent = () => t.fake.received.filter((r) => r.path === '/hook').length;

  it('stops at the per-number limit, for a number on an account and one on none alike', async () => {
    await withNumber('+2250708000001');
    const before = sent();
    expect((await ask('07 08 00 00 01')).status).toBe(200);
    expect((await ask('07 08 00 00 01')).status).toBe(200);
    const third = await ask('07 08 00 00 01');
    expect(third.status).toBe(429);
    expect(third.html).toContain('Trop de codes demandés');
    expect(sent() - before).toBe(2);
    // A number on no account: the same pages, and nothing sent.
    expect((await ask('07 09 00 00 09')).status).toBe(200);
    expect((await ask('07 09 00 00 09')).status).toBe(200);
    expect((await ask('07 09 00 00 09')).status).toBe(429);
    expect(sent() - before).toBe(2);
  });

  it('stops at the per-range limit', async () => {
    const before = sent();
    for (const last of ['11', '12', '13', '14']) await withNumber(`+22501020000${last}`);
    for (const last of ['11', '12']) expect((await ask(`01 02 00 00 ${last}`)).status).toBe(200);
    expect((await ask('01 02 00 00 13')).status).toBe(200);
    expect((await ask('01 02 00 00 14')).status).toBe(429);
    expect(sent() - before).toBe(3);
  });

  it('refuses a country outside the allow-list', async () => {
    const refused = await ask('6 12 34 56 78', '+33');
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('pays de la liste');
  });

  it('a failing gateway is a page and a log line', async () => {
    await withNumber('+2250503000001');
    t.fake.failWith = 502;
    try {
      const failed = await ask('05 03 00 00 01');
      expect(failed.status).toBe(503);
      expect(failed.html).toContain('service d’envoi ne répond pas');
    } finally {
      t.fake.failWith = undefined;
    }
    expect(t.log.find('phone.gateway_failed', { reason: 'webhook_refused_502' })).toHaveLength(1);
  });

  it('stops at the daily budget, logs it and counts it', async () => {
    await withNumber('+2250504000001');
    await withNumber('+2250504100001');
    // What the tests above spent of the day's budget of 7, as the table counts it.
    const day = await t.svc.service.storage.db.query<{ sent: number }>('SELECT sent FROM phone_message_budget');
    const left = 7 - Number(day.rows[0]?.sent ?? 0);
    const before = sent();
    const numbers = ['05 04 00 00 01', '05 04 10 00 01'];
    for (let i = 0; i < left; i += 1) expect((await ask(numbers[i % 2])).status).toBe(200);
    const spent = await ask('05 04 00 00 01');
    expect(spent.status).toBe(503);
    expect(spent.html).toContain('suspendu jusqu’à demain');
    expect(sent() - before).toBe(left);
    expect(t.log.find('phone.budget_exhausted').length).toBeGreaterThan(0);
    const metrics = await fetch(`${t.svc.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(await metrics.text()).toMatch(/signin_phone_codes_total\{outcome="budget_exhausted"\} [1-9]/);
  });
});

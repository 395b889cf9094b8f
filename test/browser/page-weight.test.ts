// What a first visit costs on the wire, as Chromium counts it (CDP Network events, headers included): a
// browser that never came, from the application's authorize request to the login page with its stylesheet,
// its scripts and its icon, in at most 12.5 KB, every page, stylesheet and script compressed, and no 404 on
// the way (the icon was one: /favicon.ico answered the 1.8 KB error page). It was 8.2 KB before passkeys;
// their script and the challenge that the e-mail field's autofill waits on add 2.9 KB. Bytes are counted, not timed;
// how long it takes on a slow link is bench/slow-network.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { launchChromium, PHONE } from './chromium.ts';
import { watchWire } from './wire.ts';

const BUDGET = 12_500;

let svc: TestService;
let chromium: Browser;
let rp: RelyingParty;
beforeAll(async () => {
  chromium = await launchChromium();
  svc = await startTestService();
  rp = await relyingParty(svc.url, await svc.createClient({ name: 'Marché de Cocody' }));
});
afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
});

describe('a first visit on the wire', () => {
  it('brings the login page, its stylesheet, script and icon in at most 12.5 KB, compressed, without a 404', async () => {
    const context = await chromium.newContext({ viewport: PHONE, locale: 'fr-FR' });
    const page = await context.newPage();
    const wire = await watchWire(page);
    await page.goto((await rp.start()).url, { waitUntil: 'load' });
    await page.locator('#password').waitFor();
    // The icon comes after the page's `load` event.
    await wire.settled();

    const requests = wire.requests();
    const lines = requests.map((r) => `${r.status} ${r.encoding || '-'} ${r.bytes} B ${new URL(r.url).pathname}`).join('\n');
    const path = (pattern: RegExp) => requests.filter((r) => pattern.test(new URL(r.url).pathname));
    // What a first visit loads: the page, its stylesheet and scripts, an icon, and the passkey challenge
    // that autofill waits on.
    expect(path(/^\/interaction\/[\w-]+$/), lines).toHaveLength(1);
    expect(path(/^\/static\/app\.css$/), lines).toHaveLength(1);
    expect(path(/^\/static\/show-password\.js$/), lines).toHaveLength(1);
    expect(path(/^\/static\/passkeys\.js$/), lines).toHaveLength(1);
    expect(path(/^\/static\/icon\.svg$|^\/favicon\.ico$/), lines).not.toHaveLength(0);

    expect(
      requests.filter((r) => r.failed || r.fromCache || !r.status || r.status >= 400),
      lines,
    ).toEqual([]);
    // The challenge's answer is left as it is: it carries a secret (a challenge), like the pages with a form
    // secret, and is a few hundred bytes.
    for (const request of [...path(/^\/interaction\/[\w-]+$/), ...path(/^\/static\/.*\.(css|js)$/)]) {
      expect(request.encoding, `${new URL(request.url).pathname} compressed`).toMatch(/^(zstd|br|gzip)$/);
    }
    expect(wire.sent().bytes, lines).toBeLessThanOrEqual(BUDGET);
    await context.close();
  });

  it('answers the browser’s own /favicon.ico with an icon on a page that links none', async () => {
    // A page without an icon link: the JSON of the discovery document. The browser then asks /favicon.ico,
    // once: a browser of its own, since Chromium remembers a site's icon, or its absence, across contexts.
    const browser = await launchChromium();
    const page = await browser.newPage();
    const wire = await watchWire(page);
    await page.goto(`${svc.url}/.well-known/openid-configuration`, { waitUntil: 'load' });
    await wire.settled();
    const favicon = wire.requests().find((r) => new URL(r.url).pathname === '/favicon.ico');
    await browser.close();
    expect(
      favicon?.status,
      wire
        .requests()
        .map((r) => r.url)
        .join('\n'),
    ).toBe(200);
  });
});

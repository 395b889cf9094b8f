// The sign-in pages on a slow network, in Chromium: 400 kbit/s each way, 400 ms a round trip, the CPU four
// times slower (a cheap phone on a weak mobile link), against the real service started in this process
// (embedded store in memory). For each journey, its time and what it cost on the wire (bytes received,
// headers included, and requests that went over the network), as the browser counts them (CDP):
//  - first visit: a browser that never came, from the authorize request to a usable login page (its `load`
//    event: the stylesheet and the script are in);
//  - returning user: a browser that came before (its cache kept, its session gone) signs in with its
//    password; the consent given last time is remembered, or given again if the page asks; until the
//    browser asks for the redirect URI with the code; then the same on a browser with nothing cached;
//  - new user: from the authorize request, the sign-up form, the e-mail link opened in a second tab and
//    confirmed, the password again, the consent, until the redirect URI with the code.
//   npm run bench:slow-network           (BENCH_ROUNDS=3; BENCH_LABEL=before adds "-before" to the file name)
// Results to bench/results/slow-network-<date>[-<label>].json. Nothing here is a test: see bench/README.md.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../test/browser/chromium.ts';
import { watchWire, type Wire } from '../test/browser/wire.ts';
import { startSmtpSink } from '../test/email/smtp-sink.ts';
import { newUser } from '../test/signup/journey.ts';
import { relyingParty } from '../test/support/relying-party.ts';
import { startTestService } from '../test/support/service.ts';
import { countSetting } from './settings.ts';

const ROUNDS = countSetting('BENCH_ROUNDS', 3);
const LABEL = process.env.BENCH_LABEL ?? '';
if (!/^[a-z0-9-]*$/.test(LABEL)) throw new Error(`BENCH_LABEL must be lower-case letters, digits and hyphens (got "${LABEL}")`);
const NETWORK = { kbps: 400, rttMs: 400, cpuSlowdown: 4 };
const TIMEOUT = 60_000;

/** The slow network and the slow CPU, on one tab. */
async function slowDown(wire: Wire): Promise<void> {
  const bytesPerSecond = (NETWORK.kbps * 1000) / 8;
  // Chromium adds `latency` between sending a request and receiving its response's headers: one round trip.
  await wire.cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: NETWORK.rttMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
  await wire.cdp.send('Emulation.setCPUThrottlingRate', { rate: NETWORK.cpuSlowdown });
}

async function slowTab(context: BrowserContext): Promise<{ page: Page; wire: Wire }> {
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const wire = await watchWire(page);
  await slowDown(wire);
  return { page, wire };
}

interface Measure {
  ms: number;
  bytes: number;
  requests: number;
  detail: Array<{ path: string; status?: number; encoding: string; bytes: number; fromCache: boolean }>;
  notes?: Record<string, unknown>;
}

const smtp = await startSmtpSink();
const svc = await startTestService({ mail: smtp.mailConfig() });
const client = await svc.createClient({ name: 'Marché de Cocody' });
const rp = await relyingParty(svc.url, client);
// Each journey in a browser of its own: Chromium remembers a page's icon (or its absence) across its
// contexts, and a first visit must pay for it.
let browser = await launchChromium();
const chromiumVersion = browser.version();
const atRedirectUri = (url: string) => url.startsWith(client.redirectUri);

/** The requests of `wires` that went over the network, and each request's line. */
function costOf(wires: Wire[]): Omit<Measure, 'ms'> {
  const all = wires.flatMap((wire) => wire.requests()).filter((request) => !atRedirectUri(request.url) && !request.failed);
  const sent = all.filter((request) => !request.fromCache);
  return {
    bytes: sent.reduce((sum, request) => sum + request.bytes, 0),
    requests: sent.length,
    detail: all.map((request) => {
      const url = new URL(request.url);
      return {
        path: `${request.method} ${url.pathname.replace(/^\/(interaction|oauth\/authorize)\/[\w-]+/, '/$1/:uid')}`,
        status: request.status,
        encoding: request.encoding,
        bytes: request.bytes,
        fromCache: request.fromCache,
      };
    }),
  };
}

/** Waits for the browser to ask for the redirect URI, and checks that it carries a code. */
function codeAtRedirectUri(page: Page): Promise<number> {
  return page
    .waitForRequest((request) => atRedirectUri(request.url()), { timeout: TIMEOUT })
    .then((request) => {
      if (!new URL(request.url()).searchParams.get('code')) throw new Error(`no code at the redirect URI: ${request.url()}`);
      return performance.now();
    });
}

async function firstVisit(): Promise<Measure> {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const { page, wire } = await slowTab(context);
  const url = (await rp.start()).url;
  const started = performance.now();
  await page.goto(url, { waitUntil: 'load' });
  const ms = performance.now() - started;
  await page.locator('#password').waitFor();
  // The icon comes after the `load` event: counted, not timed.
  await wire.settled();
  const measure = { ms, ...costOf([wire]) };
  await context.close();
  return measure;
}

async function signInOnce(page: Page, user: { email: string; password: string }): Promise<boolean> {
  const arrived = codeAtRedirectUri(page);
  await page.goto((await rp.start()).url, { waitUntil: 'load' });
  await page.locator('#email').fill(user.email);
  await page.locator('#password').fill(user.password);
  await page.locator('form[action$="/login"] button[type=submit]').click();
  // Either the consent page, or straight to the application when the consent is remembered.
  const consent = page.locator('form[action$="/consent"] button.primary');
  const asked = await Promise.race([
    arrived.then(() => false),
    consent.waitFor().then(
      () => true,
      () => false,
    ),
  ]);
  if (asked) await consent.click();
  await arrived;
  return asked;
}

/**
 * A user who signed in and consented before, on a browser that kept its cache (`cache: 'kept'`) or on
 * one that has nothing of the service (`'empty'`: another device, or a cache the phone emptied). Either
 * way the session is gone (it ended, or expired).
 */
async function returningUser(cache: 'kept' | 'empty'): Promise<Measure> {
  const user = await svc.createUser();
  // With nothing cached, the visit before was made from another browser (Chromium keeps what it knows of
  // a site's icon across its contexts).
  const other = cache === 'empty' ? await launchChromium() : browser;
  const earlier = await other.newContext({ locale: 'fr-FR' });
  const before = await earlier.newPage();
  before.setDefaultTimeout(TIMEOUT);
  await signInOnce(before, user);
  await before.close();
  let context = earlier;
  if (cache === 'kept') await earlier.clearCookies();
  else {
    await other.close();
    context = await browser.newContext({ locale: 'fr-FR' });
  }
  const { page, wire } = await slowTab(context);
  const started = performance.now();
  const asked = await signInOnce(page, user);
  const ms = performance.now() - started;
  await wire.settled();
  const measure = { ms, ...costOf([wire]), notes: { consentAsked: asked } };
  await context.close();
  return measure;
}

async function newUserSignUp(): Promise<Measure> {
  const user = newUser();
  const context = await browser.newContext({ locale: 'fr-FR' });
  const { page, wire } = await slowTab(context);
  const arrived = codeAtRedirectUri(page);
  const started = performance.now();
  await page.goto((await rp.start()).url, { waitUntil: 'load' });
  await page.locator('a[href$="/signup"]').click();
  await page.locator('#username').waitFor();
  await page.locator('#email').fill(user.email);
  await page.locator('#username').fill(user.username);
  await page.locator('#first_name').fill(user.firstName);
  await page.locator('#password').fill(user.password);
  await page.locator('form[action$="/signup"] button[type=submit]').click();
  await page.locator('form[action$="/login"] #password').waitFor();
  // The link of the e-mail, opened in a second tab as a mail app would, on the same slow network.
  const mail = await smtp.next(user.email);
  const tab = await slowTab(context);
  await tab.page.goto(mail.link, { waitUntil: 'load' });
  await tab.page.locator('form[action$="/email/verify"] button[type=submit]').click();
  await tab.page.waitForLoadState('load');
  await tab.page.locator('form[action$="/email/verify"]').waitFor({ state: 'detached' });
  await tab.wire.settled();
  await tab.page.close();
  await page.locator('form[action$="/login"] #password').fill(user.password);
  await page.locator('form[action$="/login"] button[type=submit]').click();
  await page.locator('form[action$="/consent"] button.primary').click();
  const ms = (await arrived) - started;
  await wire.settled();
  const measure = { ms, ...costOf([wire, tab.wire]) };
  await context.close();
  return measure;
}

const JOURNEYS = {
  firstVisit: { title: 'first visit: a usable login page', run: firstVisit },
  returningSignIn: { title: 'returning user: the whole sign-in', run: () => returningUser('kept') },
  returningSignInEmptyCache: { title: '… on a browser with nothing cached', run: () => returningUser('empty') },
  newUserSignUp: { title: 'new user: sign-up to the application', run: newUserSignUp },
} as const;
type Journey = keyof typeof JOURNEYS;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const spread = (values: number[]) => ({
  median: Math.round(median(values)),
  min: Math.round(Math.min(...values)),
  max: Math.round(Math.max(...values)),
});

const runs = Object.fromEntries(Object.keys(JOURNEYS).map((journey) => [journey, [] as Measure[]])) as Record<Journey, Measure[]>;
try {
  // One untimed visit first, so that the first round does not also pay for the service's first page.
  await firstVisit();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const journey of Object.keys(JOURNEYS) as Journey[]) {
      await browser.close();
      browser = await launchChromium();
      runs[journey].push(await JOURNEYS[journey].run());
    }
  }
} finally {
  await browser.close();
  await svc.stop();
  await smtp.stop();
}

const lines: string[] = [
  `slow network: ${NETWORK.kbps} kbit/s each way, ${NETWORK.rttMs} ms round trip, CPU ${NETWORK.cpuSlowdown}× slower; ` +
    `${ROUNDS} rounds, median (lowest–highest)`,
];
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const kb = (bytes: number) => (bytes / 1000).toFixed(1);
const results: Record<string, unknown> = {};
for (const journey of Object.keys(JOURNEYS) as Journey[]) {
  const measures = runs[journey];
  const time = spread(measures.map((m) => m.ms));
  const bytes = spread(measures.map((m) => m.bytes));
  const requests = spread(measures.map((m) => m.requests));
  lines.push(
    `${JOURNEYS[journey].title.padEnd(40)} ${seconds(time.median)} s (${seconds(time.min)}–${seconds(time.max)})   ` +
      `${kb(bytes.median)} KB (${kb(bytes.min)}–${kb(bytes.max)})   ${requests.median} requests`,
  );
  results[journey] = {
    ms: time,
    bytes,
    requests,
    last_round: measures.at(-1)?.detail,
    ...(measures[0]?.notes ? { notes: measures.map((m) => m.notes) } : {}),
  };
}
const first = runs.firstVisit.at(-1)!;
lines.push('first visit, request by request (last round):');
for (const request of first.detail) {
  lines.push(
    `  ${request.path.padEnd(40)} ${String(request.status).padStart(3)} ${(request.encoding || '-').padEnd(5)} ${request.bytes} B`,
  );
}
const summary = lines.join('\n');
console.log(summary);

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const date = new Date().toISOString().slice(0, 10);
const record = {
  benchmark: 'slow-network',
  date,
  time: new Date().toISOString(),
  node: process.version,
  chromium: chromiumVersion,
  code: {
    commit: git('rev-parse', '--short', 'HEAD'),
    uncommitted_changes: git('status', '--porcelain', '--untracked-files=no').length > 0,
  },
  label: LABEL || undefined,
  stores: 'embedded (PGlite in memory)',
  settings: { rounds: ROUNDS, kbps_each_way: NETWORK.kbps, round_trip_ms: NETWORK.rttMs, cpu_slowdown: NETWORK.cpuSlowdown },
  results,
  summary,
};
const folder = new URL('./results/', import.meta.url);
await mkdir(folder, { recursive: true });
const file = new URL(`slow-network-${date}${LABEL ? `-${LABEL}` : ''}.json`, folder);
await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
console.log(`written to bench/results/${file.pathname.split('/').at(-1)}`);

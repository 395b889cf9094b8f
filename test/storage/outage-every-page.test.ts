// A store cut (a relay between the service and its own Postgres or Redis, closed): every page a person
// opens — the sign-in steps, the e-mail links, the account page, the developer portal — answers the
// localized outage page (503, Retry-After) when it needs the store that is down, never a "page expired"
// (400) or a generic error (500). Three set-ups: everything in Postgres; Postgres and Redis with Postgres
// cut; Postgres and Redis with Redis cut.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailTokenStore } from '../../src/accounts/email-tokens.ts';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { freshPostgres, freshRedis, TEST_REDIS_URL, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { relyingParty } from '../support/relying-party.ts';
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
import { relayFor, type Relay } from './helpers/relay.ts';

const FR = { 'Accept-Language': 'fr' };
const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string>;
}

/** Opens `url` in `browser` and expects a page of the service (no redirect away). */
async function pageAt(browser: Browser, url: string): Promise<Page> {
  const page = await browser.open(url);
  if (!isPage(page) || page.status !== 200) throw new Error(`no page at ${url}`);
  return page;
}

/** Everything the probes need, made while both stores work. */
async function prepare(instance: Instance) {
  const service = instance.service;
  const user = await createUser(service);
  const owner = await createUser(service);
  const rp = await relyingParty(instance.url, await createClient(service));

  // A login page (prompt login), and a consent page (prompt consent) in another browser.
  const loginBrowser = new Browser(instance.url, FR);
  const login = await pageAt(loginBrowser, (await rp.start()).url);
  const consentBrowser = new Browser(instance.url, FR);
  const consentLogin = await pageAt(consentBrowser, (await rp.start()).url);
  const consent = await consentBrowser.submit(consentLogin, /\/login$/, { email: user.email, password: user.password });
  if (!isPage(consent) || !/\/consent"/.test(consent.html)) throw new Error('no consent page');

  // The e-mail links, with real tokens, and the forms that carry the anti-forgery token.
  const tokens = new EmailTokenStore(service.context.db);
  const reset = await tokens.issue(user.id, 'reset-password', 3600);
  const verify = await tokens.issue(user.id, 'verify-email', 3600);
  const linkBrowser = new Browser(instance.url, FR);
  const forgot = await pageAt(linkBrowser, '/password/forgot');

  // The account page, signed in, and its sign-in form in a browser signed out.
  const accountBrowser = new Browser(instance.url, FR);
  const accountLogin = await pageAt(accountBrowser, '/account');
  const account = await accountBrowser.submit(accountLogin, /\/account\/login$/, {
    csrf: csrfOf(accountLogin.html),
    email: user.email,
    password: user.password,
  });
  if (!isPage(account) || !/name="new_password"/.test(account.html))
    throw new Error(`no account page: ${isPage(account) ? account.status + account.url + account.html.slice(0, 3000) : account.href}`);
  const signedOut = new Browser(instance.url, FR);
  const signedOutLogin = await pageAt(signedOut, '/account');

  // The portal, signed in as an owner.
  const portalBrowser = new Browser(instance.url, FR);
  const portalLogin = await pageAt(portalBrowser, '/portal/login');
  const portal = await portalBrowser.submit(portalLogin, /\/login$/, { email: owner.email, password: owner.password });
  if (!isPage(portal) || !portal.url.endsWith('/portal/')) throw new Error('no portal page');

  return {
    user,
    login: { browser: loginBrowser, path: new URL(login.url).pathname },
    consent: { browser: consentBrowser, path: new URL(consent.url).pathname },
    links: { browser: linkBrowser, reset, verify, csrf: csrfOf(forgot.html) },
    account: { browser: accountBrowser, csrf: csrfOf(account.html) },
    signedOut: { browser: signedOut, csrf: csrfOf(signedOutLogin.html) },
    portal: { browser: portalBrowser, csrf: csrfOf(portal.html) },
  };
}

type Material = Awaited<ReturnType<typeof prepare>>;

async function get(browser: Browser, path: string): Promise<Answer> {
  const res = await browser.agent.get(path).set(FR).redirects(0);
  return { status: res.status, text: res.text, headers: res.headers as Record<string, string> };
}

async function post(browser: Browser, path: string, fields: Record<string, string>): Promise<Answer> {
  const res = await browser.agent.post(path).set(FR).type('form').send(new URLSearchParams(fields).toString()).redirects(0);
  return { status: res.status, text: res.text, headers: res.headers as Record<string, string> };
}

/** Each page a person may be on when the store goes down, as their browser asks for it. */
async function probe(m: Material): Promise<Record<string, Answer>> {
  const { user } = m;
  const interaction = m.login.path;
  const fresh = `new.${randomBytes(4).toString('hex')}@example.org`;
  return {
    'login page': await get(m.login.browser, interaction),
    'login post': await post(m.login.browser, `${interaction}/login`, { email: user.email, password: user.password }),
    'sign-up page': await get(m.login.browser, `${interaction}/signup`),
    'sign-up post': await post(m.login.browser, `${interaction}/signup`, {
      email: fresh,
      username: `new_${randomBytes(4).toString('hex')}`,
      first_name: 'Nadia',
      password: 'a long enough passphrase 1',
    }),
    'consent page': await get(m.consent.browser, m.consent.path),
    'consent post': await post(m.consent.browser, `${m.consent.path}/consent`, { scope: 'openid' }),
    'forgot post': await post(m.links.browser, '/password/forgot', { csrf: m.links.csrf, email: user.email, return: '' }),
    'reset link': await get(m.links.browser, `/password/reset?token=${m.links.reset}`),
    'reset post': await post(m.links.browser, '/password/reset', {
      csrf: m.links.csrf,
      token: m.links.reset,
      password: 'another long passphrase 2',
    }),
    'verify link': await get(m.links.browser, `/email/verify?token=${m.links.verify}`),
    'verify post': await post(m.links.browser, '/email/verify', { csrf: m.links.csrf, token: m.links.verify }),
    'account page': await get(m.account.browser, '/account'),
    'account sign-in': await post(m.signedOut.browser, '/account/login', {
      csrf: m.signedOut.csrf,
      email: user.email,
      password: user.password,
    }),
    'account profile post': await post(m.account.browser, '/account/profile', { csrf: m.account.csrf, first_name: 'Awa' }),
    'portal home': await get(m.portal.browser, '/portal/'),
    'portal new app': await get(m.portal.browser, '/portal/apps/new'),
    'portal register': await post(m.portal.browser, '/portal/apps', {
      csrf: m.portal.csrf,
      name: 'App',
      app_type: 'web',
      redirect_uris: 'https://app.example.org/cb',
      scope: 'openid',
    }),
  };
}

/** The outage page: 503, Retry-After, in French, with no trace of an error or of a form that went stale. */
function expectOutagePages(answers: Record<string, Answer>, pages: string[]): void {
  for (const name of pages) {
    const answer = answers[name];
    const head = `${name}: ${answer.status} ${/<title>([^<]*)/.exec(answer.text)?.[1] ?? answer.text.slice(0, 200)}`;
    expect(answer.status, head).toBe(503);
    expect(String(answer.headers['retry-after']), head).toMatch(/^\d+$/);
    expect(answer.headers['content-type'], head).toMatch(/text\/html/);
    expect(answer.text, head).toContain('lang="fr"');
    expect(answer.text, head).toContain('momentanément indisponible');
    expect(answer.text, head).not.toMatch(/at \w+ \(|node_modules|Error:/);
  }
}

/** Pages that did not need the store that is down answer as usual: never a 400 or a 500 for the outage. */
function expectNoFalseFailure(answers: Record<string, Answer>): void {
  for (const [name, answer] of Object.entries(answers)) {
    expect([200, 303, 503], `${name}: ${answer.status}`).toContain(answer.status);
  }
}

interface Setup {
  name: string;
  withRedis: boolean;
  cut: 'postgres' | 'redis';
  /** The pages that need the store that is cut, whatever caches hold. */
  failing: string[];
}

const EVERY_PAGE = [
  'login page',
  'login post',
  'sign-up page',
  'sign-up post',
  'consent page',
  'consent post',
  'forgot post',
  'reset link',
  'reset post',
  'verify link',
  'verify post',
  'account page',
  'account sign-in',
  'account profile post',
  'portal home',
  'portal new app',
  'portal register',
];

const SETUPS: Setup[] = [
  { name: 'everything in Postgres, Postgres cut', withRedis: false, cut: 'postgres', failing: EVERY_PAGE },
  {
    name: 'Postgres and Redis, Postgres cut',
    withRedis: true,
    cut: 'postgres',
    // The interaction lives in Redis and its client in the cache: the login and sign-up forms still show.
    failing: EVERY_PAGE.filter((page) => page !== 'login page' && page !== 'sign-up page'),
  },
  {
    name: 'Postgres and Redis, Redis cut',
    withRedis: true,
    cut: 'redis',
    // The interactions, the sessions and the limits live in Redis; the e-mail links only in Postgres.
    failing: [
      'login page',
      'login post',
      'sign-up page',
      'sign-up post',
      'consent page',
      'consent post',
      'forgot post',
      'reset post',
      'account page',
      'account sign-in',
      'account profile post',
      'portal home',
      'portal new app',
      'portal register',
    ],
  },
];

describe.each(SETUPS)('$name', (setup) => {
  let pg: FreshPostgres | undefined;
  let redis: FreshRedis | undefined;
  let relay: Relay | undefined;
  let instance: Instance | undefined;
  beforeAll(async () => {
    pg = await freshPostgres();
    if (setup.withRedis) redis = await freshRedis();
    const through = setup.cut === 'postgres' ? await relayFor(pg.url, 5432) : await relayFor(TEST_REDIS_URL, 6379);
    relay = through.relay;
    const storage =
      setup.cut === 'postgres'
        ? postgresStorage(through.url, redis?.config, 1000)
        : postgresStorage(pg.url, { ...redis!.config, url: through.url }, 1000);
    const port = await freePort();
    instance = await startInstance(sharedConfig(`http://127.0.0.1:${port}`, storage), port);
  });
  afterAll(() =>
    teardown(
      () => instance?.stop(),
      () => relay?.close(),
      () => redis?.cleanup(),
      () => pg?.drop(),
    ),
  );

  it('answers the outage page on every page that needs the store, and nothing worse on the others', async () => {
    const material = await prepare(instance!);
    await relay!.cut();
    const answers = await probe(material);
    console.log(
      `${setup.name}:`,
      Object.entries(answers)
        .map(([name, a]) => `${name} ${a.status}`)
        .join('; '),
    );
    expectNoFalseFailure(answers);
    expectOutagePages(answers, setup.failing);
    await relay!.restore();
  });
});

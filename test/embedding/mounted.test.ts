// Embedding as a Koa developer does it: a host app with its own routes and a body parser in front of
// everything, the service mounted at /auth with the issuer https://host/auth. Every journey runs
// through it (sign-in, sign-up, the account page, password reset, the developer portal), and every
// redirect, form action, link, cookie path and asset URL the service hands out stays under /auth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, signInAndConsent, type Page } from '../support/browser.ts';
import { exchangeCode, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import type { TestClient } from '../support/service.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { cookiePath, outsidePrefix, pageUrls, PREFIX, startHostApp, type HostApp } from './host-app.ts';

let host: HostApp;
let smtp: SmtpSink;
let client: TestClient;
const pages: Page[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink();
  host = await startHostApp({ mail: smtp.mailConfig() });
  const { client: registered, clientSecret } = await host.service.context.clients.create({
    name: 'Hôte',
    description: 'Application hôte',
    appType: 'web',
    redirectUris: ['https://host.example.org/cb'],
    scopes: ['openid', 'email', 'profile'],
  });
  client = { clientId: registered.clientId, clientSecret, redirectUri: 'https://host.example.org/cb', scopes: registered.scopes };
});
afterAll(async () => {
  await host?.stop();
  await smtp?.stop();
});

const csrfOf = (page: Page) => /name="csrf" value="([^"]+)"/.exec(page.html)![1];

async function user(overrides: { emailVerified?: boolean } = {}) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const details = { email: `awa.${stamp}@example.org`, password: 'une phrase de passe solide', username: `awa_${stamp}`, firstName: 'Awa' };
  const account = await host.service.context.accounts.create({ ...details, emailVerified: overrides.emailVerified ?? true });
  return { ...details, id: account.id };
}

/** Opens a page and keeps it for the prefix check at the end. */
async function open(browser: Browser, url: string): Promise<Page> {
  const page = await browser.open(url);
  if (!isPage(page)) throw new Error(`${url} left the service for ${page.href}`);
  pages.push(page);
  return page;
}

async function submit(browser: Browser, page: Page, action: RegExp, fields: Record<string, string | string[]>): Promise<Page | URL> {
  const next = await browser.submit(page, action, fields);
  if (isPage(next)) pages.push(next);
  return next;
}

describe('mounted at /auth behind a host body parser', () => {
  it('keeps the host routes and its body parser working', async () => {
    expect(await (await fetch(`${host.origin}/hello`)).json()).toEqual({ hello: 'host' });
    const echo = await fetch(`${host.origin}/echo`, { method: 'POST', body: new URLSearchParams({ a: 'b' }) });
    expect(await echo.json()).toEqual({ received: { a: 'b' } });
    const discovery = (await (await fetch(`${host.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(discovery.issuer).toBe(host.issuer);
    expect(discovery.token_endpoint).toBe(`${host.issuer}/oauth/token`);
  });

  it('signs in through the login and consent pages, and the code is redeemed through the body parser', async () => {
    const account = await user();
    const rp = await relyingParty(host.issuer, client);
    const start = await rp.start();
    const arrival = await signInAndConsent(new Browser(host.issuer), start.url, account);
    pages.push(...arrival.pages);
    // The login page was served under the prefix: the interaction URL carries it.
    expect(arrival.pages[0].url).toMatch(new RegExp(`^${host.issuer}/interaction/[\\w-]+$`));
    const tokens = await rp.redeem(arrival.callback, start);
    expect(tokens.scope).toBe('openid email profile');
    expect((await userinfo(host.issuer, tokens.access_token)).json.email).toBe(account.email);
  });

  it('answers a wrong password on the login page instead of hanging, and the right one goes on', async () => {
    const account = await user();
    const rp = await relyingParty(host.issuer, client);
    const browser = new Browser(host.issuer);
    const login = await open(browser, (await rp.start()).url);
    const refused = (await submit(browser, login, /\/login$/, { email: account.email, password: 'pas le bon' })) as Page;
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('Adresse e\u2011mail ou mot de passe incorrect.');
    const consent = (await submit(browser, refused, /\/login$/, { email: account.email, password: account.password })) as Page;
    expect(consent.html).toContain('/consent"');
  });

  it('signs up a new account and continues to the application', async () => {
    const rp = await relyingParty(host.issuer, client);
    const start = await rp.start();
    const browser = new Browser(host.issuer);
    const login = await open(browser, start.url);
    const signupHref = pageUrls(login.html).find((u) => u.endsWith('/signup'));
    expect(signupHref).toMatch(new RegExp(`^${PREFIX}/interaction/`));
    const form = await open(browser, new URL(signupHref!, host.origin).href);
    const stamp = Date.now();
    const newcomer = { email: `mariam.${stamp}@example.org`, password: 'le fleuve Niger au petit matin' };
    const done = (await submit(browser, form, /\/signup$/, {
      email: newcomer.email,
      username: `mariam_${stamp}`,
      first_name: 'Mariam',
      password: newcomer.password,
    })) as Page;
    expect(done.html).toContain('Vérifiez votre adresse e\u2011mail');
    // The page's sign-in form continues the authorization, under the prefix.
    expect(done.html).toMatch(new RegExp(`action="${PREFIX}/interaction/[^/"]+/login"`));
    const consent = (await submit(browser, done, /\/login$/, newcomer)) as Page;
    const callback = await submit(browser, consent, /\/consent$/, { scope: ['openid', 'email'] });
    expect(callback).toBeInstanceOf(URL);
    expect((callback as URL).searchParams.get('state')).toBe(start.state);
  });

  it('runs the account page: home redirect, sign-in, a new verification link, password change, revoke', async () => {
    const account = await user({ emailVerified: false });
    const home = await fetch(`${host.issuer}/`, { redirect: 'manual' });
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe(`${PREFIX}/account`);

    const browser = new Browser(host.issuer);
    const form = await open(browser, `${PREFIX}/account`);
    const signedIn = (await submit(browser, form, /\/account\/login$/, {
      csrf: csrfOf(form),
      email: account.email,
      password: account.password,
    })) as Page;
    expect(signedIn.url).toBe(`${host.issuer}/account`);
    expect(signedIn.html).toMatch(/Connecté avec/);
    const resent = (await submit(browser, signedIn, /\/account\/verify-email$/, { csrf: csrfOf(signedIn) })) as Page;
    expect(resent.html).toContain('Un nouveau lien de vérification vient d’être envoyé');
    // The link of the message is under the prefix, and its confirm button verifies the address.
    const mail = await smtp.next(account.email);
    expect(mail.link.startsWith(`${host.issuer}/email/verify?token=`)).toBe(true);
    const confirm = await open(browser, mail.link);
    const verified = (await submit(browser, confirm, /\/email\/verify$/, {
      csrf: csrfOf(confirm),
      token: /name="token" value="([^"]+)"/.exec(confirm.html)![1],
    })) as Page;
    expect(verified.html).toContain('Adresse e\u2011mail vérifiée');
    const changed = (await submit(browser, resent, /\/account\/password$/, {
      csrf: csrfOf(resent),
      current_password: account.password,
      new_password: 'une toute nouvelle phrase secrète',
    })) as Page;
    expect(changed.html).toContain('Votre mot de passe a été modifié.');

    // An application the user shared data with, revoked from the page.
    const rp = await relyingParty(host.issuer, client);
    const arrival = await signInAndConsent(browser, (await rp.start()).url, {
      email: account.email,
      password: 'une toute nouvelle phrase secrète',
    });
    pages.push(...arrival.pages);
    const listed = await open(browser, `${PREFIX}/account`);
    expect(listed.html).toContain('Hôte');
    const revoked = (await submit(browser, listed, /\/account\/revoke$/, { csrf: csrfOf(listed), client_id: client.clientId })) as Page;
    expect(revoked.html).toContain('L’accès de Hôte a été retiré.');
  });

  it('sends a reset link under the prefix and sets the new password through it', async () => {
    const account = await user();
    const browser = new Browser(host.issuer);
    const forgot = await open(browser, `${PREFIX}/password/forgot`);
    const sent = (await submit(browser, forgot, /\/password\/forgot$/, {
      csrf: csrfOf(forgot),
      email: account.email,
      return: '/account',
    })) as Page;
    expect(sent.html).toContain('Consultez vos e\u2011mails');
    const mail = await smtp.next(account.email);
    expect(mail.link.startsWith(`${host.issuer}/password/reset?token=`)).toBe(true);
    const reset = await open(browser, mail.link);
    const done = (await submit(browser, reset, /\/password\/reset$/, {
      csrf: csrfOf(reset),
      token: /name="token" value="([^"]+)"/.exec(reset.html)![1],
      password: 'encore une autre phrase solide',
    })) as Page;
    expect(done.html).toContain('Mot de passe modifié');
    const form = await open(browser, `${PREFIX}/account`);
    const signedIn = (await submit(browser, form, /\/account\/login$/, {
      csrf: csrfOf(form),
      email: account.email,
      password: 'encore une autre phrase solide',
    })) as Page;
    expect(signedIn.html).toMatch(/Connecté avec/);
  });

  it('runs the developer portal: sign-in through the login page, register an application, see its secret once', async () => {
    const owner = await user();
    const browser = new Browser(host.issuer);
    const login = await open(browser, `${PREFIX}/portal/login`);
    expect(login.url).toMatch(new RegExp(`^${host.issuer}/interaction/`));
    const portalHome = (await submit(browser, login, /\/login$/, { email: owner.email, password: owner.password })) as Page;
    expect(portalHome.url).toBe(`${host.issuer}/portal/`);
    const form = await open(browser, `${PREFIX}/portal/apps/new`);
    const created = (await submit(browser, form, /\/portal\/apps$/, {
      csrf: csrfOf(form),
      name: 'Application intégrée',
      description: 'Enregistrée à travers l’hôte',
      app_type: 'mobile',
      redirect_uris: 'com.example.hote:/callback',
      scope: ['openid', 'email'],
    })) as Page;
    expect(created.url).toMatch(new RegExp(`^${host.issuer}/portal/apps/[A-Za-z0-9]{32}$`));
    expect(created.html).toMatch(/id="client-secret">[A-Za-z0-9]{48}</);
    // The integration help names the prefixed endpoints.
    expect(created.html).toContain(`${host.issuer}/oauth/token`);
  });

  it('exchanges a mobile code without a secret through the host parser', async () => {
    const account = await user();
    const { client: mobile, clientSecret } = await host.service.context.clients.create({
      name: 'Mobile',
      description: 'Une appli',
      appType: 'mobile',
      redirectUris: ['com.example.mobile:/cb'],
      scopes: ['openid', 'email'],
    });
    const registered = { clientId: mobile.clientId, clientSecret, redirectUri: 'com.example.mobile:/cb', scopes: mobile.scopes };
    const rp = await relyingParty(host.issuer, registered);
    const start = await rp.start();
    const arrival = await signInAndConsent(new Browser(host.issuer), start.url, account);
    const res = await exchangeCode(host.issuer, registered, { callback: arrival.callback, start }, { client_secret: undefined });
    expect(res.status).toBe(200);
  });

  it('handed out no redirect, link, form action, asset URL or cookie outside /auth', () => {
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      const outside = pageUrls(page.html).filter((url) => outsidePrefix(url, host.origin));
      expect(outside, page.url).toEqual([]);
    }
    const served = host.responses.filter((r) => r.url.startsWith(PREFIX));
    expect(served.some((r) => r.location)).toBe(true);
    for (const response of served) {
      if (response.location)
        expect(outsidePrefix(response.location, host.origin), `${response.method} ${response.url} → ${response.location}`).toBe(false);
      for (const cookie of response.cookies)
        expect(cookiePath(cookie), `${response.url}: ${cookie}`).toMatch(new RegExp(`^${PREFIX}(/|$)`));
    }
    // The engine's own cookies among them: the session, and each interaction's under its page.
    const cookies = served.flatMap((r) => r.cookies);
    expect(cookies.some((c) => /^_session=/.test(c) && cookiePath(c) === PREFIX)).toBe(true);
    expect(cookies.some((c) => /^_interaction=/.test(c) && cookiePath(c).startsWith(`${PREFIX}/interaction/`))).toBe(true);
  });
});

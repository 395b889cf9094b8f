// Signing in as a browser does, step by step, keeping every Set-Cookie header on the way: what the
// "Rester connecté" tests read the session cookie's lifetime from.
import { Browser, formActions, isPage, type Page } from '../support/browser.ts';
import { csrfOf } from './account-browser.ts';

export const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
export const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

export interface Walk {
  /** Every Set-Cookie header answered on the way, in order. */
  cookies: string[];
  /** Where the walk ended: a page of the service, or the application's callback. */
  end: Page | URL;
}

/** Posts `fields` to the form of `page` matching `action`, then follows redirects, keeping every Set-Cookie. */
export async function postAndFollow(
  browser: Browser,
  page: Page,
  action: RegExp,
  fields: Record<string, string | string[]>,
): Promise<Walk> {
  const target = formActions(page.html).find((a) => action.test(a));
  if (!target) throw new Error(`no form ${action} on ${page.url}`);
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  const url = new URL(target, page.url);
  const res = await browser.agent.post(url.pathname).set(headersOf(browser)).type('form').send(body.toString()).redirects(0);
  return follow(browser, url, res);
}

/** Opens `url` and follows redirects, keeping every Set-Cookie. */
export async function getAndFollow(browser: Browser, url: string): Promise<Walk> {
  const target = new URL(url);
  const res = await browser.agent
    .get(target.pathname + target.search)
    .set(headersOf(browser))
    .redirects(0);
  return follow(browser, target, res);
}

type Answer = Awaited<ReturnType<Browser['agent']['get']>>;

async function follow(browser: Browser, from: URL, first: Answer): Promise<Walk> {
  const cookies: string[] = [];
  let res = first;
  let at = from;
  for (let hops = 0; hops < 10; hops += 1) {
    cookies.push(...((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []));
    const location = res.headers.location as string | undefined;
    if (!(res.status >= 300 && res.status < 400 && location)) {
      return { cookies, end: { status: res.status, url: at.href, html: res.text, headers: res.headers as Record<string, string> } };
    }
    const next = new URL(location, at);
    if (next.origin !== from.origin) return { cookies, end: next };
    at = next;
    res = await browser.agent
      .get(next.pathname + next.search)
      .set(headersOf(browser))
      .redirects(0);
  }
  throw new Error('too many redirects');
}

const headersOf = (browser: Browser) => ({ 'User-Agent': UA.get(browser) ?? 'node', 'Accept-Language': 'fr' });

const UA = new WeakMap<Browser, string>();

/** A browser with this User-Agent (and a French page language). */
export function device(url: string, userAgent: string): Browser {
  const browser = new Browser(url, { 'User-Agent': userAgent, 'Accept-Language': 'fr' });
  UA.set(browser, userAgent);
  return browser;
}

/** Signs in with the account page's own form, "Rester connecté" ticked or not. */
export async function accountSignIn(browser: Browser, user: { email: string; password: string }, remember: boolean): Promise<Walk> {
  const form = await browser.open('/account');
  if (!isPage(form)) throw new Error('expected the account page');
  const fields = { csrf: csrfOf(form), email: user.email, password: user.password, ...(remember ? { remember: 'yes' } : {}) };
  return postAndFollow(browser, form, /\/account\/login$/, fields);
}

/** Signs in to an application through the login page ("Rester connecté" ticked or not) and its consent, as far as they are asked. */
export async function appSignIn(
  browser: Browser,
  authorizeUrl: string,
  user: { email: string; password: string },
  remember: boolean,
): Promise<Walk> {
  const cookies: string[] = [];
  let walk = await getAndFollow(browser, authorizeUrl);
  for (let step = 0; step < 3 && !(walk.end instanceof URL); step += 1) {
    cookies.push(...walk.cookies);
    const page = walk.end;
    if (/name="password"/.test(page.html)) {
      walk = await postAndFollow(browser, page, /\/login$/, {
        email: user.email,
        password: user.password,
        ...(remember ? { remember: 'yes' } : {}),
      });
    } else {
      const scopes = [...page.html.matchAll(/name="scope"[^>]*value="([^"]+)"/g)].map((m) => m[1]);
      walk = await postAndFollow(browser, page, /\/consent$/, { scope: [...new Set(['openid', ...scopes])] });
    }
  }
  return { cookies: [...cookies, ...walk.cookies], end: walk.end };
}

/** The Set-Cookie headers that set the engine's session cookie (not its clearing). */
export const sessionCookies = (walk: Walk, name: string): string[] =>
  walk.cookies.filter((c) => c.startsWith(`${name}=`) && !/expires=Thu, 01 Jan 1970/i.test(c));

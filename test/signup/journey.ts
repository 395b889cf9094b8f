// Sign-up inside an authorization, as a browser does it over HTTP: login page → "create an account"
// → the form → "check your e-mail" page and its sign-in form → consent → back at the application.
import { Browser, isPage, type Page } from '../support/browser.ts';
import type { RelyingParty } from '../support/relying-party.ts';

export interface NewUser {
  email: string;
  username: string;
  firstName: string;
  password: string;
}

let counter = 0;
export function newUser(overrides: Partial<NewUser> = {}): NewUser {
  counter += 1;
  const suffix = `${process.pid}${counter}${Date.now() % 100000}`;
  return {
    email: `nouvelle.${suffix}@example.org`,
    username: `nouvelle_${suffix}`,
    firstName: 'Adjoua',
    password: 'un thé au bord de la lagune',
    ...overrides,
  };
}

export function hrefs(html: string): string[] {
  return [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

export async function openSignup(browser: Browser, rp: RelyingParty, params: Record<string, string> = {}) {
  const start = await rp.start(params);
  const login = await browser.open(start.url);
  if (!isPage(login)) throw new Error('expected the login page');
  const signupHref = hrefs(login.html).find((h) => /\/interaction\/[^/]+\/signup$/.test(h));
  if (!signupHref) throw new Error(`no sign-up link on the login page:\n${login.html}`);
  const form = await browser.open(new URL(signupHref, login.url).href);
  if (!isPage(form)) throw new Error('expected the sign-up page');
  return { start, login, form };
}

export async function submitSignup(browser: Browser, form: Page, user: NewUser): Promise<Page> {
  const done = await browser.submit(form, /\/signup$/, {
    email: user.email,
    username: user.username,
    first_name: user.firstName,
    password: user.password,
  });
  if (!isPage(done)) throw new Error('sign-up redirected away');
  return done;
}

/**
 * From the "check your e-mail" page: sign in with the password just chosen, consent to `scopes` (all
 * when omitted), return the callback.
 */
export async function continueToApp(
  browser: Browser,
  done: Page,
  user: Pick<NewUser, 'email' | 'password'>,
  scopes?: string[],
): Promise<{ callback: URL; consent: Page }> {
  const consent = await browser.submit(done, /\/interaction\/[^/]+\/login$/, { email: user.email, password: user.password });
  if (!isPage(consent)) throw new Error('expected the consent page');
  const offered = [...consent.html.matchAll(/name="scope"[^>]*value="([^"]+)"/g)].map((m) => m[1]);
  const callback = await browser.submit(consent, /\/consent$/, { scope: [...new Set(['openid', ...(scopes ?? offered)])] });
  if (isPage(callback)) throw new Error(`did not return to the application:\n${callback.html.slice(0, 1000)}`);
  return { callback, consent };
}

// Portal test helpers: an owner signed in to the portal through the real login page, in a cookie-
// keeping supertest browser, and form posts that carry (or deliberately omit) the CSRF token.
import { expect } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

export interface Owner {
  id: string;
  email: string;
  password: string;
  browser: Browser;
  /** Headers every request of this owner sends (Accept-Language). */
  headers?: Record<string, string>;
  /** The page the portal showed right after sign-in. */
  home: Page;
}

export const PORTAL = '/portal';

export const VALID_APP = {
  name: 'Mon application',
  description: 'Une application de démonstration',
  app_type: 'web',
  redirect_uris: 'https://app.example.org/callback\nhttps://other.example.net/cb',
  scope: ['openid', 'email', 'profile'],
};

export async function signInToPortal(ts: TestService, headers: Record<string, string> = { 'Accept-Language': 'fr' }): Promise<Owner> {
  const user = await ts.createUser();
  const browser = new Browser(ts.url, headers);
  const login = await browser.open(`${ts.url}${PORTAL}/login`);
  if (!isPage(login) || !/name="password"/.test(login.html)) throw new Error('the portal did not lead to the login page');
  const home = await browser.submit(login, /\/login$/, { email: user.email, password: user.password });
  if (!isPage(home)) throw new Error(`sign-in left the service for ${home.href}`);
  expect(home.url).toBe(`${ts.url}${PORTAL}/`);
  return { id: user.id, email: user.email, password: user.password, browser, headers, home };
}

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1];
}

export async function get(owner: Pick<Owner, 'browser' | 'headers'>, path: string) {
  return owner.browser.agent
    .get(`${PORTAL}${path}`)
    .set(owner.headers ?? {})
    .redirects(0);
}

/** A form post as the portal's own forms send it; `csrf: null` leaves the token out. */
export async function post(
  owner: Pick<Owner, 'browser' | 'headers'>,
  path: string,
  fields: Record<string, string | string[]>,
  csrf: string | null,
) {
  const body = new URLSearchParams();
  if (csrf !== null) body.append('csrf', csrf);
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  return owner.browser.agent
    .post(`${PORTAL}${path}`)
    .set(owner.headers ?? {})
    .type('form')
    .send(body.toString())
    .redirects(0);
}

/** Registers an application through the form; returns its id and the secret the page showed once. */
export async function registerApp(owner: Owner, fields: Record<string, string | string[]> = VALID_APP) {
  const res = await post(owner, '/apps', fields, csrfOf(owner.home.html));
  expect(res.status).toBe(303);
  const location = res.headers.location as string;
  const clientId = /\/apps\/([A-Za-z0-9]{32})$/.exec(location)?.[1];
  if (!clientId) throw new Error(`unexpected redirect ${location}`);
  const page = await get(owner, `/apps/${clientId}`);
  const clientSecret = /id="client-secret">([A-Za-z0-9]{48})</.exec(page.text)?.[1];
  if (!clientSecret) throw new Error('the new secret was not shown');
  return { clientId, clientSecret, location, page };
}

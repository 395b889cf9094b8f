// The account page as a user reaches it: open it, sign in with its own form, read a form's token.
import { Browser, isPage, type Page } from '../support/browser.ts';

export const csrfOf = (page: Page): string => page.html.match(/name="csrf" value="([^"]+)"/)![1];

export async function accountPage(browser: Browser): Promise<Page> {
  const page = await browser.open('/account');
  if (!isPage(page)) throw new Error('expected a page');
  return page;
}

/** Signs in with the account page's own form; the account page that follows. */
export async function signInToAccount(browser: Browser, user: { email: string; password: string }): Promise<Page> {
  const form = await accountPage(browser);
  const page = await browser.submit(form, /\/account\/login$/, { csrf: csrfOf(form), email: user.email, password: user.password });
  if (!isPage(page)) throw new Error('expected a page');
  return page;
}

/** Submits a form of the page and expects a page of the service back. */
export async function submitForm(browser: Browser, page: Page, action: RegExp, fields: Record<string, string>): Promise<Page> {
  const next = await browser.submit(page, action, { csrf: csrfOf(page), ...fields });
  if (!isPage(next)) throw new Error(`expected a page, went to ${next.href}`);
  return next;
}

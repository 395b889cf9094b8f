// A user's browser, over HTTP with supertest: it keeps cookies, follows the service's redirects, fills
// the real login and consent forms, and stops when the service sends it back to the application.
import request from 'supertest';

export interface Page {
  status: number;
  url: string;
  html: string;
  headers: Record<string, string>;
}

export interface Arrival {
  /** The URL the service redirected the browser to, on the application's side. */
  callback: URL;
  /** Pages shown on the way, in order. */
  pages: Page[];
}

export class Browser {
  readonly agent: ReturnType<typeof request.agent>;
  private readonly origin: string;

  constructor(
    serviceUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {
    this.origin = new URL(serviceUrl).origin;
    this.agent = request.agent(this.origin);
  }

  /** Opens a URL of the service and follows redirects while they stay on the service. */
  async open(url: string): Promise<Page | URL> {
    let target = new URL(url, this.origin);
    for (let hops = 0; hops < 10; hops += 1) {
      if (target.origin !== this.origin) return target;
      const res = await this.agent
        .get(target.pathname + target.search)
        .set(this.headers)
        .redirects(0);
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        target = new URL(res.headers.location, target);
        continue;
      }
      return { status: res.status, url: target.href, html: res.text, headers: res.headers as Record<string, string> };
    }
    throw new Error('too many redirects');
  }

  /** Submits a form of `page` (the first whose action matches `actionPattern`) and follows redirects. */
  async submit(page: Page, actionPattern: RegExp, fields: Record<string, string | string[]>): Promise<Page | URL> {
    const action = formActions(page.html).find((a) => actionPattern.test(a));
    if (!action) throw new Error(`no form matching ${actionPattern} on ${page.url}:\n${page.html.slice(0, 2000)}`);
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    }
    const target = new URL(action, page.url);
    const res = await this.agent
      .post(target.pathname + target.search)
      .set(this.headers)
      .type('form')
      .send(body.toString())
      .redirects(0);
    if (res.status >= 300 && res.status < 400 && res.headers.location) return this.open(new URL(res.headers.location, target).href);
    return { status: res.status, url: target.href, html: res.text, headers: res.headers as Record<string, string> };
  }
}

export function formActions(html: string): string[] {
  return [...html.matchAll(/<form[^>]*\saction="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

export function isPage(x: Page | URL): x is Page {
  return !(x instanceof URL);
}

/** Signs in through the login form and answers the consent form, ticking `scopes` (all when omitted). */
export async function signInAndConsent(
  browser: Browser,
  authorizeUrl: string,
  user: { email: string; password: string },
  consent: { scopes?: string[]; refuse?: boolean } = {},
): Promise<Arrival> {
  const pages: Page[] = [];
  let step = await browser.open(authorizeUrl);
  for (let i = 0; i < 6 && isPage(step); i += 1) {
    const page = step;
    pages.push(page);
    if (page.status !== 200) throw new Error(`page ${page.url} answered ${page.status}:\n${page.html.slice(0, 1500)}`);
    if (/name="password"/.test(page.html)) {
      step = await browser.submit(page, /\/login$/, { email: user.email, password: user.password });
    } else if (consent.refuse) {
      step = await browser.submit(page, /\/abort$/, {});
    } else if (/\/consent"/.test(page.html)) {
      const offered = [...page.html.matchAll(/name="scope"[^>]*value="([^"]+)"/g)].map((m) => m[1]);
      const ticked = consent.scopes ?? offered;
      step = await browser.submit(page, /\/consent$/, { scope: [...new Set(['openid', ...ticked])] });
    } else {
      throw new Error(`unexpected page ${page.url}:\n${page.html.slice(0, 1500)}`);
    }
  }
  if (isPage(step)) throw new Error(`did not return to the application; last page ${step.url}`);
  return { callback: step, pages };
}

// A browser reduced to what the timing tests need: it keeps the service's cookies, follows redirects while
// they stay on the service, and posts forms, all through a timed client on its own thread (timed-http.ts).
// The client address of each post is given by the caller, in X-Forwarded-For.
import type { TimedAnswer, TimedClient } from './timed-http.ts';

export interface Answer {
  status: number;
  url: string;
  html: string;
  /** The time of the request as its client saw it, in milliseconds (the last one, after redirects). */
  ms: number;
}

export class FormClient {
  private readonly cookies = new Map<string, string>();
  private readonly origin: string;

  constructor(
    serviceUrl: string,
    private readonly http: TimedClient,
  ) {
    this.origin = new URL(serviceUrl).origin;
  }

  /** Opens `url` and follows redirects on the service. */
  async open(url: string): Promise<Answer> {
    let target = new URL(url, this.origin);
    for (let hops = 0; hops < 10; hops += 1) {
      const res = this.keep(await this.http.send({ url: target.href, headers: { cookie: this.cookieHeader() } }));
      if (res.status >= 300 && res.status < 400 && res.location) {
        target = new URL(res.location, target);
        if (target.origin !== this.origin) throw new Error(`left the service for ${target.href}`);
        continue;
      }
      return { status: res.status, url: target.href, html: res.text, ms: res.ms };
    }
    throw new Error('too many redirects');
  }

  /** Posts a form to `path` from client address `ip`, without following a redirect. */
  async post(path: string, form: Record<string, string>, ip: string): Promise<Answer> {
    const url = new URL(path, this.origin).href;
    const res = this.keep(
      await this.http.send({ url, method: 'POST', headers: { cookie: this.cookieHeader(), 'x-forwarded-for': ip }, form }),
    );
    return { status: res.status, url, html: res.text, ms: res.ms };
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  // Paths and lifetimes are ignored: sending a cookie to a path it was not set for changes nothing here.
  private keep(res: TimedAnswer): TimedAnswer {
    for (const line of res.setCookies) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

export const csrfOf = (html: string): string => {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no anti-forgery token on the page:\n${html.slice(0, 1000)}`);
  return match[1];
};

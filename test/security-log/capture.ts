// What the security-log tests read: every line the service's logger wrote (a pino destination that keeps
// them, handed to the service as a real one would be), and the sensitive values a test used, to prove
// that none of them reached a line.
import cookiejar from 'cookiejar';
import { expect } from 'vitest';
import type { Browser } from '../support/browser.ts';

export type LogLine = Record<string, unknown> & { event?: string; level: string; time: string };

export class LogCapture {
  readonly text: string[] = [];
  /** The pino destination: one call per line. */
  readonly destination = { write: (line: string) => void this.text.push(line) };

  lines(): LogLine[] {
    return this.text.map((line) => JSON.parse(line) as LogLine);
  }

  /** The lines of `event` whose fields include `match`. */
  find(event: string, match: Record<string, unknown> = {}): LogLine[] {
    return this.lines().filter((line) => line.event === event && Object.entries(match).every(([key, value]) => line[key] === value));
  }

  /** The one line of `event` matching `match` (fails on none or several). */
  one(event: string, match: Record<string, unknown> = {}): LogLine {
    const found = this.find(event, match);
    expect(found, `${event} ${JSON.stringify(match)} in:\n${this.text.join('')}`).toHaveLength(1);
    return found[0];
  }
}

/** Values a test used that must never appear in a log line. */
export class Sensitive {
  private readonly values = new Set<string>();

  add(...values: Array<string | undefined | null>): void {
    for (const value of values) if (value) this.values.add(value);
  }

  /** Every cookie value the browser holds now (session, interaction, anti-forgery cookies). */
  addCookies(browser: Browser): void {
    const { jar } = browser.agent as unknown as { jar: cookiejar.CookieJar };
    // Short values (a language cookie's `fr`) are not secrets, and would match anything.
    for (const cookie of jar.getCookies(cookiejar.CookieAccessInfo.All)) if (cookie.value.length >= 16) this.add(cookie.value);
  }

  /** The anti-forgery token of a page, and any token in a link. */
  addFrom(html: string): void {
    for (const match of html.matchAll(/name="(?:csrf|token)" value="([^"]+)"/g)) this.add(match[1]);
  }

  /** Fails naming the first value found in `output`. */
  expectAbsentFrom(output: string): void {
    expect(this.values.size).toBeGreaterThan(10);
    for (const value of this.values) expect(output.includes(value), `a used value appears in the log: ${value}`).toBe(false);
  }
}

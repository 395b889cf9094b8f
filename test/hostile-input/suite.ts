// The hostile-input suite, run once per store: every endpoint of endpoints.ts, every field with every
// bad value of corpus.ts, each field repeated, odd bodies and wrong methods. Each answer must be a
// well-formed refusal: RFC 6749 JSON for a protocol endpoint, the localized page otherwise; never a
// 5xx, always `nosniff`.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { BAD_VALUES, ODD_BODIES, OAUTH_ERRORS, WRONG_METHODS } from './corpus.ts';
import { ENDPOINTS, type Endpoint, type Kind } from './endpoints.ts';
import type { Fixture } from './fixture.ts';

type Response = request.Response;

/** Query or body text: `base` with `field` set to `raw` (sent as is). */
function formText(base: Record<string, string>, field: string, raw: string): string {
  const pairs = Object.entries(base)
    .filter(([name]) => name !== field)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
  pairs.push(`${field}=${raw}`);
  return pairs.join('&');
}

/** `base` with `field` sent twice. */
function repeatedText(base: Record<string, string>, field: string): string {
  const value = encodeURIComponent(base[field] ?? 'x');
  return `${formText(base, field, value)}&${field}=${value}`;
}

/**
 * A URL longer than Node's HTTP server reads (16 KB) is refused by the server itself, before the
 * service: with a 431, or by closing the connection while the client still writes.
 */
async function orServerRefusal(sending: Promise<Response>, oversizedUrl: boolean): Promise<Response> {
  try {
    return await sending;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (oversizedUrl && (code === 'ECONNRESET' || code === 'EPIPE')) return { status: 431 } as Response;
    throw error;
  }
}

function send(
  fx: Fixture,
  endpoint: Endpoint,
  options: { field?: string; raw?: string; text?: string; method?: string; type?: string; body?: string },
): Promise<Response> {
  const agent = endpoint.agent?.(fx) ?? request(fx.url);
  const path = endpoint.path(fx).replace('{}', endpoint.in === 'path' ? (options.raw ?? 'x') : 'x');
  const method = (options.method ?? endpoint.method).toLowerCase() as 'get' | 'post' | 'put' | 'delete' | 'patch';
  const text = options.text ?? '';
  const url = endpoint.in === 'query' && text ? `${path}?${text}` : path;
  const req = agent[method](url).redirects(0);
  // As a browser asks for a page (the engine answers JSON to a client that does not say so).
  if (endpoint.kind !== 'api') req.set('Accept', 'text/html,application/xhtml+xml');
  if (options.body !== undefined) return req.set('Content-Type', options.type ?? 'application/x-www-form-urlencoded').send(options.body);
  if (endpoint.in === 'body' && method === 'post') return req.type('form').send(text);
  return req;
}

/** A refusal as the kind of endpoint must give it; `refused` false accepts any answer that is not a failure. */
export function expectWellFormed(res: Response, kind: Kind, label: string, refused = true): void {
  // Node's HTTP server refuses a request line or headers over 16 KB itself, before the service sees them.
  if (res.status === 431) return;
  expect(res.status, label).toBeLessThan(500);
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  if (refused) expect(res.status, label).toBeGreaterThanOrEqual(400);
  if (res.status < 400) return;
  expect(res.text, label).not.toMatch(/node_modules|\n\s+at |TypeError|SyntaxError/);
  if (kind === 'api' && res.status !== 404) {
    expect(res.headers['content-type'], label).toMatch(/^application\/json/);
    expect(OAUTH_ERRORS.has((res.body as { error?: string }).error ?? ''), `${label}: ${res.text.slice(0, 200)}`).toBe(true);
  } else if (kind !== 'api') {
    expect(res.headers['content-type'], label).toMatch(/^text\/html/);
    expect(res.text, label).toMatch(/<html lang="(fr|en)">/);
    expect(res.text, label).toMatch(/<title>[^<]+<\/title>/);
  }
}

/** `invalid_request` sent back to the fixture's application, with `iss`, in the query. */
function expectRedirectedRefusal(res: Response, fx: Fixture, label: string): void {
  expect(res.status, label).toBe(303);
  const location = new URL(String(res.headers.location));
  expect(`${location.origin}${location.pathname}`, label).toBe(fx.client.redirectUri);
  expect(location.searchParams.get('error'), label).toBe('invalid_request');
  expect(location.searchParams.get('iss'), label).toBe(fx.url);
}

export function hostileInputSuite(store: string, fixture: () => Fixture): void {
  describe(`hostile input (${store})`, () => {
    for (const endpoint of ENDPOINTS) {
      const name = `${endpoint.method} ${endpoint.path({ interaction: { uid: ':uid' } } as Fixture)}`;
      it(`${name}: every field, every bad value, odd bodies and methods`, async () => {
        const fx = fixture();
        const base = endpoint.base?.(fx) ?? {};
        for (const field of endpoint.fields) {
          for (const bad of BAD_VALUES) {
            const sending = send(fx, endpoint, { field, raw: bad.raw, text: formText(base, field, bad.raw) });
            const res = await orServerRefusal(sending, endpoint.in !== 'body' && bad.raw.length > 16 * 1024);
            expectWellFormed(res, endpoint.kind, `${name} ${field}=${bad.name}`, bad.refused);
          }
          if (endpoint.in === 'path') continue;
          const repeated = await send(fx, endpoint, { text: repeatedText(base, field) });
          if (endpoint.redirectsRepeated?.includes(field)) expectRedirectedRefusal(repeated, fx, `${name} ${field} repeated`);
          // A protocol parameter sent twice is refused; a page reads the first value and answers as usual.
          else expectWellFormed(repeated, endpoint.kind, `${name} ${field} repeated`, endpoint.kind !== 'page');
        }
        if (endpoint.method === 'POST') {
          for (const odd of ODD_BODIES) {
            const res = await send(fx, endpoint, { type: odd.type, body: odd.body });
            expectWellFormed(res, endpoint.kind, `${name} ${odd.name}`, false);
          }
        }
        if (endpoint.noMethods) return;
        for (const method of WRONG_METHODS) {
          const res = await send(fx, endpoint, { method });
          expectWellFormed(res, endpoint.kind, `${name} as ${method}`);
          if (endpoint.kind !== 'page') expect(res.status, `${name} as ${method}`).toBe(405);
          if (res.status === 405) expect(res.headers.allow, `${name} as ${method}`).toBeTruthy();
        }
      });
    }
  });
}

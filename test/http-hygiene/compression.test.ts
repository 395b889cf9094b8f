// What goes over the wire, read as raw bytes: pages, stylesheets and scripts compressed in the encoding the
// browser asks for; the static files compressed once ahead, each encoding its own representation; never a
// page that carries a form secret (BREACH); never the engine's JSON; and an icon at `/favicon.ico` and at
// the URL every page links, the deployment's logo when it has one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriesFormSecret } from '../../src/edge/compression.ts';
import { startTestService, type TestService } from '../support/service.ts';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** GET as a browser sends it, the body as it came (nothing decoded). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function decoded(res: Raw): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body).toString();
  if (encoding === 'gzip') return gunzipSync(res.body).toString();
  if (encoding === 'zstd') return zstdDecompressSync(res.body).toString();
  expect(encoding).toBeUndefined();
  return res.body.toString();
}

const CHROME = 'gzip, deflate, br, zstd';
const APP_CSS = readFileSync(new URL('../../views/static/app.css', import.meta.url));
const hrefIn = (html: string, rel: string) => new RegExp(`<link rel="${rel}" href="([^"]+)"`).exec(html)?.[1];

const dir = mkdtempSync(join(tmpdir(), 'signin-compression-'));
const LOGO = join(dir, 'logo.png');
// A 1×1 PNG: the logo a deployment configured.
writeFileSync(
  LOGO,
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
);

let svc: TestService;
let branded: TestService;
beforeAll(async () => {
  svc = await startTestService();
  branded = await startTestService({ branding: { logo: LOGO, links: [] } });
});
afterAll(async () => {
  await svc?.stop();
  await branded?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('compressed pages', () => {
  it('sends a page in the encoding the browser asks for, and as is to one that asks for none', async () => {
    const asIs = await rawGet(`${svc.url}/nowhere`);
    expect(asIs.status).toBe(404);
    expect(asIs.headers['content-encoding']).toBeUndefined();
    expect(asIs.headers.vary).toMatch(/accept-encoding/i);
    const page = decoded(asIs);
    expect(page).toContain('<!doctype html>');

    for (const [accept, encoding] of [
      [CHROME, 'zstd'],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const res = await rawGet(`${svc.url}/nowhere`, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.length).toBeLessThan(asIs.body.length * 0.7);
      expect(decoded(res)).toBe(page);
    }
  });

  it('never compresses a page that carries a form token, so that its length tells nothing of it (BREACH)', async () => {
    // The password-reset request page carries this browser's anti-forgery token and reflects its query.
    const res = await rawGet(`${svc.url}/password/forgot?email=guess`, { 'accept-encoding': CHROME });
    expect(res.status).toBe(200);
    expect(decoded(res)).toMatch(/name="csrf" value="[\w-]{43}"/);
    expect(res.headers['content-encoding']).toBeUndefined();
    // And a proxy or CDN in front is asked not to compress it either.
    expect(res.headers['cache-control']).toMatch(/(^|, )no-transform$/);
  });

  it('tells a page with a form secret, ours or the engine’s sign-out one, from one without', () => {
    expect(carriesFormSecret('<form><input type="hidden" name="csrf" value="abc"></form>')).toBe(true);
    expect(carriesFormSecret(Buffer.from('<input type="hidden" name="xsrf" value="abc"/>'))).toBe(true);
    expect(carriesFormSecret('<form><input type="hidden" name="scope" value="email"></form>')).toBe(false);
    // A stream cannot be read beforehand: it is taken to carry one.
    expect(carriesFormSecret({ pipe() {} })).toBe(true);
  });

  it('leaves the engine’s JSON as it is', async () => {
    const res = await rawGet(`${svc.url}/.well-known/openid-configuration`, { 'accept-encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).issuer).toBe(svc.url);
  });
});

describe('static files compressed once', () => {
  let href: string;
  beforeAll(async () => {
    href = hrefIn(decoded(await rawGet(`${svc.url}/nowhere`)), 'stylesheet')!;
    expect(href).toMatch(/^\/static\/app\.css\?v=[\w-]{12}$/);
  });

  it('sends the stylesheet brotli-compressed, else gzip, else as is, each with its own ETag and cached for good', async () => {
    const br = await rawGet(svc.url + href, { 'accept-encoding': CHROME });
    const gzip = await rawGet(svc.url + href, { 'accept-encoding': 'gzip' });
    const plain = await rawGet(svc.url + href);
    expect([br.headers['content-encoding'], gzip.headers['content-encoding'], plain.headers['content-encoding']]).toEqual([
      'br',
      'gzip',
      undefined,
    ]);
    for (const res of [br, gzip, plain]) {
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(Buffer.from(decoded(res))).toEqual(APP_CSS);
    }
    // About a quarter of its size, for a first visit on a slow link.
    expect(br.body.length).toBeLessThan(APP_CSS.length * 0.3);
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
  });

  it('answers 304 to a browser that has the same encoding already', async () => {
    const first = await rawGet(svc.url + href, { 'accept-encoding': CHROME });
    const again = await rawGet(svc.url + href, { 'accept-encoding': CHROME, 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The ETag of another encoding is another representation: the whole file again.
    const other = await rawGet(svc.url + href, { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag! });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });
});

describe('the page icon', () => {
  it('is linked from every page, and served small and for good', async () => {
    const href = hrefIn(decoded(await rawGet(`${svc.url}/nowhere`)), 'icon')!;
    expect(href).toMatch(/^\/static\/icon\.svg\?v=[\w-]{12}$/);
    const icon = await rawGet(svc.url + href);
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Opened on its own, the SVG may run nothing.
    expect(icon.headers['content-security-policy']).toContain('sandbox');
    expect(decoded(icon)).toMatch(/^<svg /);
    expect(icon.body.length).toBeLessThan(512);
  });

  it('answers /favicon.ico with a small icon, cached for a week, rather than the 404 page', async () => {
    const res = await rawGet(`${svc.url}/favicon.ico`, { 'accept-encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=604800');
    // An ICO file: reserved 0, type 1 (icon), one image.
    expect([...res.body.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(res.body.length).toBeLessThan(512);
    const again = await rawGet(`${svc.url}/favicon.ico`, { 'if-none-match': res.headers.etag! });
    expect(again.status).toBe(304);
  });

  it('is the deployment’s logo when it has one', async () => {
    const href = hrefIn(decoded(await rawGet(`${branded.url}/nowhere`)), 'icon')!;
    expect(href).toMatch(/^\/static\/logo\?v=[\w-]{12}$/);
    const favicon = await rawGet(`${branded.url}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers['content-type']).toBe('image/png');
    expect(favicon.body).toEqual(readFileSync(LOGO));
  });
});

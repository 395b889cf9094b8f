// The static files of the pages: the stylesheet every page links, the script of the password fields'
// "Afficher" button, the page icon, and the portal's own stylesheet and copy-button script. Each is read once and linked with a hash of its content in the URL, so browsers
// may cache it for a year and still get a new version the moment it changes. They do not change while the
// service runs, so each is also compressed once, at the best (slowest) settings, the first time it is
// asked for, and sent as the browser accepts it (brotli, else gzip, else as is).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type Koa from 'koa';

const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
const SVG = 'image/svg+xml';
const FILES = {
  'app.css': { file: new URL('../../views/static/app.css', import.meta.url), type: CSS },
  'portal.css': { file: new URL('../../views/static/portal.css', import.meta.url), type: CSS },
  'copy.js': { file: new URL('../../views/portal/static/copy.js', import.meta.url), type: JS },
  'show-password.js': { file: new URL('../../views/static/show-password.js', import.meta.url), type: JS },
  'fedcm-done.js': { file: new URL('../../views/static/fedcm-done.js', import.meta.url), type: JS },
  'passkeys.js': { file: new URL('../../views/static/passkeys.js', import.meta.url), type: JS },
  'icon.svg': { file: new URL('../../views/static/icon.svg', import.meta.url), type: SVG },
  'favicon.ico': { file: new URL('../../views/static/favicon.ico', import.meta.url), type: 'image/x-icon' },
} as const;

export type AssetName = keyof typeof FILES;

/** The encodings sent compressed ahead, in the order they are preferred (brotli is the smaller). */
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

/** A file served as it is, whatever the request, and possibly compressed ahead. */
export interface StaticFile {
  body: Buffer | string;
  type: string;
  etag: string;
  /** The same body compressed, by encoding; only the encodings that came out smaller. */
  encoded?: Partial<Record<Encoding, Buffer>>;
}

interface Asset extends StaticFile {
  body: Buffer;
  /** Path with the content hash, relative to where the face serving it is mounted. */
  href: string;
}

const loaded = new Map<AssetName, Asset>();

/** Where a face serves the asset: `/static/<name>` under its own path. */
export const assetPath = (name: AssetName): string => `/static/${name}`;

export function asset(name: AssetName): Asset {
  let found = loaded.get(name);
  if (!found) {
    const body = readFileSync(FILES[name].file);
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
    found = { body, type: FILES[name].type, href: `${assetPath(name)}?v=${hash}`, etag: `"${hash}"` };
    loaded.set(name, found);
  }
  return found;
}

/** `file` with its compressed forms, made the first time and kept: none of these files changes at run time. */
export function compressedAhead<T extends StaticFile>(file: T): T {
  if (!file.encoded) {
    const body = Buffer.from(file.body);
    const made: Record<Encoding, Buffer> = {
      br: brotliCompressSync(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
      gzip: gzipSync(body, { level: zlib.Z_BEST_COMPRESSION }),
    };
    file.encoded = Object.fromEntries(ENCODINGS.filter((e) => made[e].length < body.length).map((e) => [e, made[e]]));
  }
  return file;
}

/** GET of one asset: cached for good (the URL changes with the content), 304 when the browser has it. */
export function serveAsset(name: AssetName): Koa.Middleware {
  return async function serveStaticAsset(ctx) {
    sendImmutable(ctx, compressedAhead(asset(name)));
  };
}

const FOR_GOOD = 'public, max-age=31536000, immutable';

/** A file whose URL changes with its content: cached for good, 304 when the browser has it already. */
export function sendImmutable(ctx: Koa.Context, file: StaticFile, headers: Record<string, string> = {}): void {
  sendStatic(ctx, file, FOR_GOOD, headers);
}

/**
 * A static file, compressed when it was ahead and the browser accepts it, with its cache policy. Each
 * encoding is its own representation: its own ETag, and `Vary: Accept-Encoding` for the caches between.
 */
export function sendStatic(ctx: Koa.Context, file: StaticFile, cacheControl: string, headers: Record<string, string> = {}): void {
  const encoding = file.encoded ? preferredEncoding(ctx, file.encoded) : undefined;
  const etag = encoding ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag;
  ctx.set({ 'Cache-Control': cacheControl, ETag: etag, 'X-Content-Type-Options': 'nosniff', ...headers });
  if (file.encoded) ctx.vary('Accept-Encoding');
  ctx.type = file.type;
  // Koa judges freshness only for a successful response: until now the status is the default 404.
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.body = encoding ? file.encoded![encoding] : file.body;
}

/** The smallest encoding made ahead that the request accepts (`q` above 0), if any. */
function preferredEncoding(ctx: Koa.Context, encoded: Partial<Record<Encoding, Buffer>>): Encoding | undefined {
  const accepted = ctx.acceptsEncodings() as string[];
  return ENCODINGS.find((encoding) => encoded[encoding] && accepted.includes(encoding));
}

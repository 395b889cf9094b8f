// The static files of the pages: the stylesheet every page links, the script of the password fields'
// "Afficher" button, and the portal's own stylesheet and copy-button script. Each is read once and linked with a hash of its content in the URL, so browsers
// may cache it for a year and still get a new version the moment it changes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type Koa from 'koa';

const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
const FILES = {
  'app.css': { file: new URL('../../views/static/app.css', import.meta.url), type: CSS },
  'portal.css': { file: new URL('../../views/static/portal.css', import.meta.url), type: CSS },
  'copy.js': { file: new URL('../../views/portal/static/copy.js', import.meta.url), type: JS },
  'show-password.js': { file: new URL('../../views/static/show-password.js', import.meta.url), type: JS },
} as const;

export type AssetName = keyof typeof FILES;

interface Asset {
  body: Buffer;
  type: string;
  /** Path with the content hash, relative to where the face serving it is mounted. */
  href: string;
  etag: string;
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

/** GET of one asset: cached for good (the URL changes with the content), 304 when the browser has it. */
export function serveAsset(name: AssetName): Koa.Middleware {
  return async function serveStaticAsset(ctx) {
    sendImmutable(ctx, asset(name));
  };
}

/** A file whose URL changes with its content: cached for good, 304 when the browser has it already. */
export function sendImmutable(
  ctx: Koa.Context,
  file: { etag: string; type: string; body: Buffer | string },
  headers: Record<string, string> = {},
): void {
  ctx.set({ 'Cache-Control': 'public, max-age=31536000, immutable', ETag: file.etag, 'X-Content-Type-Options': 'nosniff', ...headers });
  ctx.type = file.type;
  // Koa judges freshness only for a successful response: until now the status is the default 404.
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = file.body;
}

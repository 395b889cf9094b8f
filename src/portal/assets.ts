// The portal's stylesheet (on top of the pages' app.css) and its one script (the copy button), read
// once and linked with a content hash so that browsers may cache them for good.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type Koa from 'koa';

interface Asset {
  body: Buffer;
  type: string;
  /** Path under the portal, with the content hash. */
  href: string;
  etag: string;
}

const FILES = {
  css: { file: new URL('../../views/static/portal.css', import.meta.url), path: '/static/portal.css', type: 'text/css; charset=utf-8' },
  js: { file: new URL('../../views/portal/static/copy.js', import.meta.url), path: '/static/copy.js', type: 'text/javascript; charset=utf-8' },
} as const;

export type AssetName = keyof typeof FILES;
const loaded = new Map<AssetName, Asset>();

export function portalAsset(name: AssetName): Asset {
  let asset = loaded.get(name);
  if (!asset) {
    const { file, path, type } = FILES[name];
    const body = readFileSync(file);
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
    asset = { body, type, href: `${path}?v=${hash}`, etag: `"${hash}"` };
    loaded.set(name, asset);
  }
  return asset;
}

export const ASSET_PATHS: Readonly<Record<AssetName, string>> = { css: FILES.css.path, js: FILES.js.path };

export function serveAsset(name: AssetName): Koa.Middleware {
  return async function servePortalAsset(ctx) {
    const asset = portalAsset(name);
    ctx.set({ 'Cache-Control': 'public, max-age=31536000, immutable', ETag: asset.etag, 'X-Content-Type-Options': 'nosniff' });
    ctx.type = asset.type;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  };
}

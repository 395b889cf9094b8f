// The page icon. Every page links it (views/partials/head.ejs): the deployment's logo when it has one
// (branding.logo), else the service's own small icon, at a URL that changes with it. `/favicon.ico`
// answers the same for what does not read the link (a page without it, a browser's first guess), so that
// no first visit pays for the 1.8 KB 404 page there: that URL never changes, so it is cached for a week.
import type Koa from 'koa';
import { asset, assetPath, compressedAhead, sendImmutable, sendStatic } from './assets.ts';
import type { Brand } from './branding.ts';

export const FAVICON_PATH = '/favicon.ico';
const A_WEEK = 'public, max-age=604800';
/** An SVG opened on its own is a document: it may run nothing and load nothing (as the logo, branding.ts). */
const SVG_ALONE = { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" };

/** Where the pages' icon is, relative to the service's mount path. */
export function iconHref(brand: Brand | undefined): string {
  return brand?.logo?.href ?? asset('icon.svg').href;
}

/** GET of the icon at its own URL, and of `/favicon.ico`. */
export function serveIcons(brand: Brand): Koa.Middleware {
  const iconPath = assetPath('icon.svg');
  return function servePageIcons(ctx, next) {
    if ((ctx.path !== iconPath && ctx.path !== FAVICON_PATH) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (ctx.path === iconPath) return sendImmutable(ctx, compressedAhead(asset('icon.svg')), SVG_ALONE);
    if (brand.logo) return sendStatic(ctx, brand.logo, A_WEEK, brand.logo.type === 'image/svg+xml' ? SVG_ALONE : {});
    // The default icon as a 32×32 PNG in an ICO file, the format every browser reads at this URL.
    sendStatic(ctx, asset('favicon.ico'), A_WEEK);
  };
}

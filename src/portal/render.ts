// Renders the portal's ejs pages with the portal translator and the portal's security headers: the
// pages' headers, plus `script-src 'self'` for the copy button's external script (never inline) and
// `form-action 'self'`, since every portal form posts to the portal itself.
import { fileURLToPath } from 'node:url';
import ejs from 'ejs';
import type Koa from 'koa';
import type { Locale } from '../i18n/index.ts';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../pages/security-headers.ts';
import { stylesheet } from '../pages/stylesheet.ts';
import { portalAsset } from './assets.ts';
import { portalTranslator } from './i18n.ts';

const VIEWS = new URL('../../views/portal/', import.meta.url);

export const PORTAL_CSP = `${CONTENT_SECURITY_POLICY}; script-src 'self'; form-action 'self'`;

export interface PortalPage {
  locale: Locale;
  /** Where the service is mounted (koa-mount), '' at the root. */
  mountPath: string;
  portalPath: string;
  /** The signed-in owner, for the header; null on the public pages. */
  owner: { email: string; csrf: string } | null;
}

export async function renderPortal(ctx: Koa.Context, page: PortalPage, view: string, locals: object, status = 200): Promise<void> {
  const root = page.mountPath + page.portalPath;
  const html = await ejs.renderFile(
    fileURLToPath(new URL(`${view}.ejs`, VIEWS)),
    {
      ...locals,
      t: portalTranslator(page.locale),
      lang: page.locale,
      root,
      owner: page.owner,
      stylesheetHref: page.mountPath + stylesheet().href,
      portalCssHref: root + portalAsset('css').href,
      copyJsHref: root + portalAsset('js').href,
    },
    { cache: process.env.NODE_ENV !== 'development' },
  );
  setPortalHeaders(ctx);
  ctx.type = 'html';
  ctx.status = status;
  ctx.body = html;
}

export function setPortalHeaders(ctx: Pick<Koa.Context, 'set'>): void {
  ctx.set({ ...SECURITY_HEADERS, 'Content-Security-Policy': PORTAL_CSP });
}

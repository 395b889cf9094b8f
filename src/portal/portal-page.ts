// The portal's pages, rendered by the page kit with the portal's catalog, its layout locals and its
// security headers: the pages' policy plus `script-src 'self'` for the copy button's external script
// (never inline) and `form-action 'self'`, since every portal form posts to the portal itself.
import type Koa from 'koa';
import type { PageFailure } from '../pages/page-errors.ts';
import { asset } from '../pages/assets.ts';
import { renderPage } from '../pages/render.ts';
import { CONTENT_SECURITY_POLICY } from '../pages/security-headers.ts';
import { portalTranslator, type PortalKey } from './portal-messages.ts';
import { pageOf, type PortalPage } from './portal-request.ts';

export const PORTAL_CSP = `${CONTENT_SECURITY_POLICY}; script-src 'self'; form-action 'self'`;

/** Renders `views/portal/<view>.ejs`. */
export async function renderPortal(ctx: Koa.Context, page: PortalPage, view: string, locals: object, status = 200): Promise<void> {
  const root = page.mountPath + page.portalPath;
  await renderPage(
    ctx,
    `portal/${view}`,
    { ...locals, root, owner: page.owner, portalCssHref: root + asset('portal.css').href, copyJsHref: root + asset('copy.js').href },
    { status, locale: page.locale, translate: portalTranslator(page.locale), contentSecurityPolicy: PORTAL_CSP },
  );
}

// Another owner's application is a 404 exactly like an id that does not exist, so that ids cannot be
// probed; a form without its token (or posted without a session) is the portal's "form expired".
const COPY: Readonly<Record<'notFound' | 'forbidden' | 'generic', { title: PortalKey; message: PortalKey }>> = {
  notFound: { title: 'error.notFound.title', message: 'error.notFound.message' },
  forbidden: { title: 'error.forbidden.title', message: 'error.forbidden.message' },
  generic: { title: 'error.generic.title', message: 'error.generic.message' },
};

/** How the page kit's error middleware shows a failure inside the portal. */
export async function showPortalError(ctx: Koa.Context, failure: PageFailure): Promise<void> {
  const kind = failure.reason === 'notFound' ? 'notFound' : failure.reason === 'formExpired' ? 'forbidden' : 'generic';
  await renderPortal(
    ctx,
    { ...pageOf(ctx), locale: failure.locale },
    'error',
    { title: COPY[kind].title, message: COPY[kind].message },
    failure.status,
  );
}

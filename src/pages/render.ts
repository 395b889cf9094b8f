// A page as the response: the view rendered through koa-views (see views.ts) with what every layout
// needs (translator, language, mount path, stylesheet, language switch, the deployment's branding),
// and the page security headers. Our routes and the engine's hooks (renderError, logout pages) all
// call renderPage.
import type Koa from 'koa';
import { t as translate, translator, type Locale, type MessageVars } from '../i18n/index.ts';
import { asset, type AssetName } from './assets.ts';
import { brandOf, brandView } from './branding.ts';
import { iconHref } from './icon.ts';
import { languageLinks, requestLocale } from './language.ts';
import { SCRIPTED_PAGE_POLICY, setSecurityHeaders } from './security-headers.ts';

// The engine's page hooks (src/provider) pick their language with this, beside renderPage.
export { localeFor } from './language.ts';

export interface RenderOptions {
  status?: number;
  locale?: Locale;
  /** `sheet`: the bottom-sheet layout for an in-app browser tab (display=touch or a mobile app). */
  layout?: 'page' | 'sheet';
  /** Where the language switch returns to; by default the current URL of a GET, else the account page. */
  returnTo?: string;
  /** A face with a catalog of its own (the portal) passes its translator; the sign-in catalog otherwise. */
  translate?: (key: never, vars?: MessageVars) => string;
  /** A policy other than the pages' default (the portal allows its own script). */
  contentSecurityPolicy?: string;
  /** Our own scripts the page loads (never needed: each only adds to a page that works without it). */
  scripts?: readonly Extract<AssetName, `${string}.js`>[];
}

/** Any Koa context: ours, a router's, or the engine's (which adds `oidc`), once pageViews() has run. */
type PageContext = Pick<Koa.Context, 'set' | 'get' | 'cookies' | 'status' | 'type' | 'body'> & {
  render?: (view: string, locals?: object) => Promise<unknown>;
  state?: unknown;
  mountPath?: string;
  method?: string;
  url?: string;
};

/** Renders `views/<view>.ejs` as the response, with the page security headers. */
export async function renderPage(ctx: PageContext, view: string, locals: object, options: RenderOptions = {}): Promise<void> {
  if (!ctx.render) throw new Error('pages: the pageViews() middleware is not installed in front of this route');
  const locale = options.locale ?? requestLocale(ctx);
  const base = ctx.mountPath ?? '';
  const scripts = options.scripts ?? [];
  const brand = brandView(brandOf(ctx), locale, translate(locale, 'service.name'));
  await ctx.render(`${view}.ejs`, {
    ...locals,
    t: options.translate ?? translator(locale),
    locale,
    lang: locale,
    base,
    brand: { ...brand, logoHref: brand.logoHref && base + brand.logoHref },
    stylesheetHref: base + asset('app.css').href,
    iconHref: base + iconHref(brandOf(ctx)),
    scriptHrefs: scripts.map((name) => base + asset(name).href),
    bodyClass: options.layout === 'sheet' ? 'bottom-sheet' : 'page',
    languageLinks: languageLinks(base, locale, options.returnTo ?? defaultReturn(ctx)),
  });
  setSecurityHeaders(ctx, options.contentSecurityPolicy ?? (scripts.length ? SCRIPTED_PAGE_POLICY : undefined));
  ctx.type = 'html';
  ctx.status = options.status ?? 200;
}

/** Koa middleware setting the page security headers, for responses that are not rendered by renderPage. */
export function pageHeaders(): Koa.Middleware {
  return async function pageHeadersMiddleware(ctx, next) {
    setSecurityHeaders(ctx);
    await next();
  };
}

function defaultReturn(ctx: PageContext): string {
  // Only a GET can be replayed; after a form post, the account page is a safe place to land.
  return ctx.method === 'GET' && ctx.url ? ctx.url : '/account';
}

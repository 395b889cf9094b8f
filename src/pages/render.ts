// Server-side rendering of the ejs pages, usable from our routes and from the engine's hooks alike
// (ejs is called directly: koa-views' ctx.render does not exist inside the engine).
import { fileURLToPath } from 'node:url';
import ejs from 'ejs';
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { DEFAULT_LOCALE, LOCALES, negotiateLocale, translator, type Locale } from '../i18n/index.ts';
import { setSecurityHeaders } from './security-headers.ts';
import { stylesheet } from './stylesheet.ts';

const VIEWS = new URL('../../views/', import.meta.url);
export const LANG_COOKIE = 'lang';

export interface RenderOptions {
  status?: number;
  locale?: Locale;
  /** `sheet`: the bottom-sheet layout for an in-app browser tab (display=touch or a mobile app). */
  layout?: 'page' | 'sheet';
  /** Where the language switch returns to; by default the current URL of a GET, else the account page. */
  returnTo?: string;
}

/** Any Koa context: ours, a router's, or the engine's (which adds `oidc`). */
type PageContext = Pick<Koa.Context, 'set' | 'get' | 'cookies' | 'status' | 'type' | 'body'> & {
  mountPath?: string;
  method?: string;
  url?: string;
};

/** Renders `views/<view>.ejs` as the response, with the page security headers. */
export async function renderPage(ctx: PageContext, view: string, locals: object, options: RenderOptions = {}): Promise<void> {
  const locale = options.locale ?? negotiateFromRequest(ctx, LOCALES, DEFAULT_LOCALE);
  const base = ctx.mountPath ?? '';
  const html = await ejs.renderFile(fileURLToPath(new URL(`${view}.ejs`, VIEWS)), {
    ...locals,
    t: translator(locale),
    locale,
    lang: locale,
    base,
    stylesheetHref: base + stylesheet().href,
    bodyClass: options.layout === 'sheet' ? 'bottom-sheet' : 'page',
    languageLinks: languageLinks(base, locale, options.returnTo ?? defaultReturn(ctx)),
  }, {
    // Compiled templates are kept in memory; only a development server re-reads them on each request.
    cache: process.env.NODE_ENV !== 'development',
  });
  setSecurityHeaders(ctx);
  ctx.type = 'html';
  ctx.status = options.status ?? 200;
  ctx.body = html;
}

/** Koa middleware setting the page security headers, for responses that are not rendered by renderPage. */
export function pageHeaders(): Koa.Middleware {
  return async function pageHeadersMiddleware(ctx, next) {
    setSecurityHeaders(ctx);
    await next();
  };
}

/** The page language for this request, from ui_locales, the `lang` cookie, Accept-Language, then the config. */
export function localeFor(ctx: Pick<Koa.Context, 'get' | 'cookies'>, config: Pick<SignInConfig, 'languages'>, uiLocales?: string): Locale {
  return negotiateFromRequest(ctx, config.languages.supported, config.languages.default, uiLocales);
}

function negotiateFromRequest(
  ctx: Pick<Koa.Context, 'get' | 'cookies'>,
  supported: readonly Locale[],
  fallback: Locale,
  uiLocales?: string,
): Locale {
  return negotiateLocale({
    uiLocales,
    cookie: ctx.cookies.get(LANG_COOKIE, { signed: false }),
    acceptLanguage: ctx.get('Accept-Language'),
    supported,
    fallback,
  });
}

/** The language switch: one link per language, each returning to the page it was clicked on. */
function languageLinks(base: string, current: Locale, returnTo: string) {
  const names: Record<Locale, string> = { fr: 'Français', en: 'English' };
  return LOCALES.map((locale) => ({
    locale,
    name: names[locale],
    current: locale === current,
    href: `${base}/lang/${locale}?return=${encodeURIComponent(returnTo)}`,
  }));
}

function defaultReturn(ctx: PageContext): string {
  // Only a GET can be replayed; after a form post, the account page is a safe place to land.
  return ctx.method === 'GET' && ctx.url ? ctx.url : '/account';
}

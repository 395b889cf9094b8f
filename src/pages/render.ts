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
}

/** Any Koa context: ours, a router's, or the engine's (which adds `oidc`). */
type PageContext = Pick<Koa.Context, 'set' | 'get' | 'cookies' | 'status' | 'type' | 'body'> & { mountPath?: string };

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

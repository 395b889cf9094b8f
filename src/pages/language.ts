// The page language: negotiated for each request (ui_locales, then the `lang` cookie, then
// Accept-Language, then the config), and chosen by the user with the language switch, a plain link
// (GET /lang/:locale?return=/path) on every page. The switch needs no anti-forgery token: the worst a
// forged click does is change the language.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { DEFAULT_LOCALE, isLocale, LOCALES, negotiateLocale, type Locale } from '../i18n/index.ts';
import { setPageCookie } from './cookies.ts';
import { safeReturnPath } from './return-path.ts';

export const LANG_COOKIE = 'lang';
const LANG_SECONDS = 365 * 24 * 3600;
const NAMES: Readonly<Record<Locale, string>> = { fr: 'Français', en: 'English' };

type RequestContext = Pick<Koa.Context, 'get' | 'cookies'>;

/** The page language for this request, among the configured ones. */
export function localeFor(ctx: RequestContext, config: Pick<SignInConfig, 'languages'>, uiLocales?: string): Locale {
  return requestLocale(ctx, config.languages.supported, config.languages.default, uiLocales);
}

/** The same negotiation, among every language the pages are written in unless told otherwise. */
export function requestLocale(
  ctx: RequestContext,
  supported: readonly Locale[] = LOCALES,
  fallback: Locale = DEFAULT_LOCALE,
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

/** The language the user picked with the switch, if any: it wins over an application's ui_locales hint. */
export function chosenLanguage(ctx: Pick<Koa.Context, 'cookies'>): string | undefined {
  return ctx.cookies.get(LANG_COOKIE, { signed: false });
}

/** Remembers the user's choice for a year; false (and nothing set) for a language the service does not offer. */
export function rememberLanguage(
  ctx: Pick<Koa.Context, 'cookies'>,
  config: Pick<SignInConfig, 'issuer' | 'languages'>,
  locale: unknown,
): boolean {
  if (!isLocale(locale) || !config.languages.supported.includes(locale)) return false;
  setPageCookie(ctx, LANG_COOKIE, locale, { issuer: config.issuer, maxAgeSeconds: LANG_SECONDS });
  return true;
}

/** GET /lang/:locale?return=/path: remembers the choice and goes back to the page it was clicked on. */
export function languageSwitch(config: Pick<SignInConfig, 'issuer' | 'languages'>): RouterMiddleware {
  return async function switchLanguage(ctx) {
    rememberLanguage(ctx, config, ctx.params.locale);
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${ctx.mountPath ?? ''}${safeReturnPath(ctx.query.return)}`);
  };
}

/** The language switch of a page: one link per language, each returning to the page it was clicked on. */
export function languageLinks(base: string, current: Locale, returnTo: string) {
  return LOCALES.map((locale) => ({
    locale,
    name: NAMES[locale],
    current: locale === current,
    href: `${base}/lang/${locale}?return=${encodeURIComponent(returnTo)}`,
  }));
}

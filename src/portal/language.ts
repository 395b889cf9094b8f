// GET {portal}/lang/:locale: the language links of the portal's header. The choice goes into the
// service-wide `lang` cookie, so the login page that follows speaks the same language.
import type Koa from 'koa';
import { isLocale } from '../i18n/index.ts';
import { LANG_COOKIE } from '../pages/render.ts';
import type { PortalDeps } from './deps.ts';
import { notFound } from './errors.ts';
import { rootOf } from './request.ts';

export function chooseLanguage(deps: PortalDeps): Koa.Middleware {
  const { config } = deps.context;
  return async function choosePortalLanguage(ctx) {
    const locale = (ctx as Koa.Context & { params?: Record<string, string> }).params?.locale;
    if (!isLocale(locale) || !config.languages.supported.includes(locale)) throw notFound();
    ctx.cookies.set(LANG_COOKIE, locale, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.issuer.startsWith('https://'),
      signed: false,
      maxAge: 365 * 24 * 3600 * 1000,
    });
    ctx.status = 303;
    ctx.redirect(`${rootOf(ctx)}/`);
  };
}

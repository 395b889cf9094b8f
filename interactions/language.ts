// GET /lang/:locale?return=/path: the language switch on every page. Remembers the choice in the
// `lang` cookie (a year) and goes back to the page it was clicked on. A plain link, so it works
// without script and needs no anti-forgery token: the worst a forged click does is change the language.
import type { RouterMiddleware } from '@koa/router';
import { isLocale } from '../src/i18n/index.ts';
import { setPageCookie } from '../src/pages/cookies.ts';
import { LANG_COOKIE } from '../src/pages/render.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { safeReturnPath } from './safe-return.ts';

export function switchLanguage(context: ServiceContext): RouterMiddleware {
  return async function switchLanguageRoute(ctx) {
    const locale = ctx.params.locale;
    if (isLocale(locale) && context.config.languages.supported.includes(locale)) {
      setPageCookie(ctx, LANG_COOKIE, locale, { issuer: context.config.issuer, maxAgeSeconds: 365 * 24 * 3600 });
    }
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${ctx.mountPath ?? ''}${safeReturnPath(ctx.query.return)}`);
  };
}

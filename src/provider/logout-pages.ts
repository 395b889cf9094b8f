// RP-initiated logout pages of the engine, localized and without script: the confirmation prompt, the
// page shown when no post_logout_redirect_uri was given, and the page of a sign-out from a browser that
// has no session (the engine's own would be raw English with an inline script).
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SignInConfig } from '../config/schema.ts';
import { localeFor, renderPage } from '../pages/render.ts';
import { logoutFormWithoutSession } from './engine.ts';

type Languages = Pick<SignInConfig, 'languages'>;

export type LogoutSource = (ctx: KoaContextWithOIDC, form: string) => Promise<void>;
export type PostLogoutSuccessSource = (ctx: KoaContextWithOIDC) => Promise<void>;
export type EngineMiddleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

export function makeLogoutSource(config: Languages): LogoutSource {
  return async function logoutSource(ctx, form) {
    // `form` is the engine's own markup (action URL and anti-forgery token, both escaped by it).
    await renderPage(ctx, 'logout', { form }, { locale: localeFor(ctx, config, uiLocalesOf(ctx)) });
  };
}

export function makePostLogoutSuccessSource(config: Languages): PostLogoutSuccessSource {
  return async function postLogoutSuccessSource(ctx) {
    const clientName = ctx.oidc?.client?.clientName ?? null;
    await renderPage(ctx, 'logged-out', { clientName }, { locale: localeFor(ctx, config, uiLocalesOf(ctx)) });
  };
}

/**
 * For the engine's app, after its page views: a sign-out without a session is answered with the
 * service's page, whose button posts the engine's own form (its confirm route and anti-forgery value),
 * then on to the application's post_logout_redirect_uri or to the "signed out" page, as the engine would.
 */
export function logoutWithoutSessionPage(config: Languages): EngineMiddleware {
  return async function logoutWithoutSession(ctx, next) {
    await next();
    const form = logoutFormWithoutSession(ctx);
    if (!form) return;
    // The engine has kept post_logout_redirect_uri only if the client registered it.
    const returnsTo = ctx.oidc.params?.post_logout_redirect_uri ? ctx.oidc.client : undefined;
    const clientName = returnsTo ? returnsTo.clientName || returnsTo.clientId : null;
    await renderPage(ctx, 'logout-no-session', { form, clientName }, { locale: localeFor(ctx, config, uiLocalesOf(ctx)) });
  };
}

function uiLocalesOf(ctx: KoaContextWithOIDC): string | undefined {
  const value = ctx.oidc?.params?.ui_locales;
  return typeof value === 'string' ? value : undefined;
}

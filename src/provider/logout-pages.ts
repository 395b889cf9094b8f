// RP-initiated logout pages of the engine, localized: the confirmation prompt and the page shown
// when no post_logout_redirect_uri was given.
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SignInConfig } from '../config/schema.ts';
import { localeFor, renderPage } from '../pages/render.ts';

type Languages = Pick<SignInConfig, 'languages'>;

export type LogoutSource = (ctx: KoaContextWithOIDC, form: string) => Promise<void>;
export type PostLogoutSuccessSource = (ctx: KoaContextWithOIDC) => Promise<void>;

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

function uiLocalesOf(ctx: KoaContextWithOIDC): string | undefined {
  const value = ctx.oidc?.params?.ui_locales;
  return typeof value === 'string' ? value : undefined;
}

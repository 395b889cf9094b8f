// The engine's renderError hook: errors shown to the browser (unknown application, return address not
// registered, malformed request, expired interaction) as our localized page instead of raw English.
import type { ErrorOut, errors, KoaContextWithOIDC } from 'oidc-provider';
import type { SignInConfig } from '../config/schema.ts';
import { reasonForOAuthError, renderErrorPage } from '../pages/error-page.ts';
import { localeFor } from '../pages/render.ts';

export type RenderErrorHook = (ctx: KoaContextWithOIDC, out: ErrorOut, error: errors.OIDCProviderError | Error) => Promise<void>;

export function makeRenderError(config: Pick<SignInConfig, 'languages'>): RenderErrorHook {
  return async function renderError(ctx, out, error) {
    await renderErrorPage(ctx, {
      reason: reasonForOAuthError(out.error, error),
      // The engine has already set the status of the error it caught.
      status: ctx.status >= 400 ? ctx.status : 500,
      locale: localeFor(ctx, config, uiLocalesOf(ctx)),
      code: out.error,
    });
  };
}

function uiLocalesOf(ctx: KoaContextWithOIDC): string | undefined {
  // The engine may fail before it has parsed the parameters (an unknown client, for one).
  const value = ctx.oidc?.params?.ui_locales ?? ctx.query?.ui_locales;
  return typeof value === 'string' ? value : undefined;
}

// The engine's renderError hook: errors shown to the browser (unknown application, return address not
// registered, malformed request, expired interaction) as our localized page instead of raw English, each
// with a way on (src/pages/ways-on.ts).
import type { ErrorOut, errors, KoaContextWithOIDC } from 'oidc-provider';
import type { SignInConfig } from '../config/schema.ts';
import { reasonForOAuthError, renderErrorPage } from '../pages/error-page.ts';
import { localeFor } from '../pages/render.ts';
import { STATE_REQUIRED } from './authorization-params.ts';
import { authorizationRefused } from './authorization-refused.ts';

export type RenderErrorHook = (ctx: KoaContextWithOIDC, out: ErrorOut, error: errors.OIDCProviderError | Error) => Promise<void>;

export function makeRenderError(config: Pick<SignInConfig, 'languages' | 'production'>): RenderErrorHook {
  return async function renderError(ctx, out, error) {
    const refusal = authorizationRefused(ctx, out.error, config.production);
    await renderErrorPage(ctx, {
      reason: reasonForOAuthError(out.error, error),
      status: statusOf(ctx, error),
      locale: localeFor(ctx, config, uiLocalesOf(ctx)),
      code: out.error,
      // The one description written for the application's developer: what to send (authorization-params.ts).
      developerNote: out.error_description === STATE_REQUIRED ? STATE_REQUIRED : refusal,
    });
  };
}

/**
 * The engine has already set the status of the error it caught. A `prompt=none` error carries 303, the
 * status of its redirect: shown as a page instead (src/provider/error-redirects.ts), it is a 400.
 */
function statusOf(ctx: KoaContextWithOIDC, error: Error & { expose?: boolean }): number {
  if (ctx.status >= 400) return ctx.status;
  return error.expose === true ? 400 : 500;
}

function uiLocalesOf(ctx: KoaContextWithOIDC): string | undefined {
  // The engine may fail before it has parsed the parameters (an unknown client, for one).
  const value = ctx.oidc?.params?.ui_locales ?? ctx.query?.ui_locales;
  return typeof value === 'string' ? value : undefined;
}

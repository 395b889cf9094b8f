// Errors of the interaction routes become localized pages: a friendly one for an expired or unknown
// interaction, a generic one for anything unexpected. Nothing internal reaches the browser.
import type Koa from 'koa';
import { errors } from 'oidc-provider';
import { isStorageUnavailable } from '../adapters/unavailable.ts';
import type { SignInConfig } from '../src/config/schema.ts';
import { isLocale } from '../src/i18n/index.ts';
import { renderErrorPage, type ErrorReason } from '../src/pages/error-page.ts';
import { localeFor } from '../src/pages/render.ts';
import { renderUnavailablePage } from '../src/http/storage-outage.ts';

/** An error the user can understand: shown with its status and reason, not logged as a failure. */
export class InteractionError extends Error {
  constructor(
    readonly status: number,
    readonly reason: ErrorReason,
  ) {
    super(`interaction failed: ${reason}`);
    this.name = 'InteractionError';
  }
}

export function interactionErrors(config: Pick<SignInConfig, 'languages'>): Koa.Middleware {
  return async function interactionErrorPages(ctx, next) {
    try {
      await next();
    } catch (error) {
      // Postgres or Redis unreachable: a 503 "try again in a moment", logged without the error's detail.
      if (isStorageUnavailable(error)) {
        console.error('interaction route: storage unavailable', { method: ctx.method, path: ctx.path });
        if (ctx.headerSent || !ctx.writable) return;
        await renderUnavailablePage(ctx, isLocale(ctx.state.locale) ? ctx.state.locale : localeFor(ctx, config));
        return;
      }
      const page = describe(error);
      if (page.status >= 500) {
        // Method, path and error only: bodies carry passwords.
        console.error('interaction route failed', { method: ctx.method, path: ctx.path, error });
      }
      // The engine writes its redirect straight to the socket; past that point nothing can be shown.
      if (ctx.headerSent || !ctx.writable) return;
      const locale = isLocale(ctx.state.locale) ? ctx.state.locale : localeFor(ctx, config);
      await renderErrorPage(ctx, { ...page, locale });
    }
  };
}

function describe(error: unknown): { status: number; reason: ErrorReason } {
  if (error instanceof InteractionError) return { status: error.status, reason: error.reason };
  // Thrown by interactionDetails/interactionFinished: expired interaction, lost cookie, ended session.
  if (error instanceof errors.SessionNotFound) return { status: 400, reason: 'sessionExpired' };
  return { status: 500, reason: 'server' };
}

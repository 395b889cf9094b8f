// Errors of the page routes become localized pages: a friendly one for what the user can fix (an
// expired interaction, a stale form, a link that no longer works), a "try again in a moment" for a
// storage outage, a generic one for anything unexpected. Nothing internal reaches the browser, and
// nothing from a request (bodies carry passwords) reaches the log.
import type Koa from 'koa';
import { errors } from 'oidc-provider';
import { isStorageUnavailable } from '../../adapters/unavailable.ts';
import { AccountDisabledError } from '../accounts/login-guard.ts';
import type { SignInConfig } from '../config/schema.ts';
import { isLocale, type Locale } from '../i18n/index.ts';
import { securityEvent, unexpectedError } from '../log/security-log.ts';
import { renderErrorPage, renderUnavailablePage, type ErrorReason } from './error-page.ts';
import { localeFor } from './language.ts';

/** An error the user can understand: shown with its status and reason, not logged as a failure. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly reason: ErrorReason,
  ) {
    super(`page failed: ${reason}`);
    this.name = 'PageError';
  }
}

export const notFound = (): PageError => new PageError(404, 'notFound');

export interface PageFailure {
  status: number;
  reason: ErrorReason;
  locale: Locale;
}

export interface PageErrorOptions {
  /** Names the face in the log line of an unexpected failure. */
  face: 'interaction' | 'account_page' | 'portal';
  /**
   * How the face shows a failure; the service's error page by default. Never asked to show an outage:
   * every face answers that with the same page (503, Retry-After), which needs nothing from the face.
   */
  show?: (ctx: Koa.Context, failure: PageFailure) => Promise<void>;
}

export function pageErrors(config: Pick<SignInConfig, 'languages'>, options: PageErrorOptions): Koa.Middleware {
  const show = options.show ?? showErrorPage;
  return async function pageErrorPages(ctx, next) {
    try {
      await next();
    } catch (error) {
      const failure = describe(error);
      // Path and error only: bodies carry passwords, queries carry codes. An outage is logged without
      // the error's detail, which may hold a connection string; anything else with its stack.
      if (failure.reason === 'unavailable')
        securityEvent('storage.unavailable', { endpoint: ctx.path, source: options.face, reason: backendOf(error) });
      else if (failure.status >= 500) unexpectedError(error, { endpoint: ctx.path, source: options.face });
      // The engine writes its redirect straight to the socket; past that point nothing can be shown.
      if (ctx.headerSent || !ctx.writable) return;
      // A route that has already picked the page language (an interaction's ui_locales) keeps it.
      const locale = isLocale(ctx.state.locale) ? ctx.state.locale : localeFor(ctx, config);
      if (failure.reason === 'unavailable') return renderUnavailablePage(ctx, locale);
      await show(ctx, { ...failure, locale });
    }
  };
}

async function showErrorPage(ctx: Koa.Context, failure: PageFailure): Promise<void> {
  await renderErrorPage(ctx, failure);
}

const backendOf = (error: unknown): string | undefined => (isStorageUnavailable(error) ? error.backend : undefined);

function describe(error: unknown): { status: number; reason: ErrorReason } {
  if (error instanceof PageError) return { status: error.status, reason: error.reason };
  // The right password for an account an administrator disabled (src/accounts/login-guard.ts).
  if (error instanceof AccountDisabledError) return { status: 403, reason: 'accountDisabled' };
  // Postgres or Redis unreachable: a 503 the user may retry.
  if (isStorageUnavailable(error)) return { status: 503, reason: 'unavailable' };
  // Thrown by interactionDetails: expired interaction, lost cookie, ended session.
  if (error instanceof errors.SessionNotFound) return { status: 400, reason: 'sessionExpired' };
  return { status: 500, reason: 'server' };
}

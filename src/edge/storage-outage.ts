// A storage outage is a 503 the client may retry, not a 500: this module turns the engine's generic
// `server_error` into `temporarily_unavailable` when (and only when) Postgres or Redis was unreachable,
// and catches what fails on the way out of the engine, past its own error handling (the session it
// saves after a route has answered, a redemption committed after the response was built).
//
// The engine catches most errors itself and answers 500 before our middleware sees anything, so the
// two halves meet through the request: its `server_error` event marks the request with the outage,
// and the middleware around the engine rewrites a marked 500 on the way out. Anything thrown past the
// engine that is not an outage is logged once, with its stack, and never shown. An outage is one
// `storage.unavailable` line per request, and its cause one line per burst (src/log/storage-outage-log.ts).
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { isStorageUnavailable, observeStorageOutages } from '../../adapters/unavailable.ts';
import type { SignInConfig } from '../config/schema.ts';
import { securityEvent, unexpectedError } from '../log/security-log.ts';
import { logStorageOutageCause } from '../log/storage-outage-log.ts';
import { countStorageError } from '../metrics/load-metrics.ts';
import { renderErrorPage, renderUnavailablePage, UNAVAILABLE_CODE, UNAVAILABLE_RETRY_SECONDS } from '../pages/error-page.ts';
import { localeFor } from '../pages/language.ts';
import { pageViews } from '../pages/views.ts';

/** RFC 6749 §4.1.2.1 names the code; the description is for developers and says nothing internal. */
export const UNAVAILABLE_BODY = Object.freeze({
  error: UNAVAILABLE_CODE,
  error_description: 'the service is temporarily unavailable, try again shortly',
});

const SERVER_ERROR_BODY = Object.freeze({ error: 'server_error', error_description: 'oops! something went wrong' });

// Keyed by the Node request, which the engine's context and ours share whatever koa-mount does.
const outages = new WeakSet<IncomingMessage>();

/**
 * Marks requests whose engine error was a storage outage. Call once per provider. (The engine's other
 * errors are logged with the engine's events, src/edge/engine-log.ts.)
 */
export function markStorageOutages(provider: Provider): void {
  // Every outage classified, whichever path met it (a page's included), has its cause logged once per burst.
  observeStorageOutages(logStorageOutageCause);
  provider.on('server_error', (ctx: Koa.Context, error: unknown) => {
    if (!isStorageUnavailable(error)) return;
    outages.add(ctx.req);
    countStorageError(error);
  });
}

/** Around the engine: a 500 caused by an outage becomes a 503, as JSON or as the localized page. */
export function storageOutageResponses(config: Pick<SignInConfig, 'languages'>): Koa.Middleware {
  // A failure before the engine's own views were installed (a check in front of it) still gets its page.
  const views = pageViews();
  const withViews = (ctx: Koa.Context, render: () => Promise<void>) => (hasViews(ctx) ? render() : views(ctx, render));
  return async function storageOutage(ctx, next) {
    try {
      await next();
    } catch (error) {
      // Past the point where the answer went out, nothing can be changed; the failure is still logged.
      if (ctx.headerSent || !ctx.writable) return void logUnexpected(ctx, error);
      ctx.remove('Location'); // a redirect set before the failure must not be followed
      if (!isStorageUnavailable(error)) {
        logUnexpected(ctx, error);
        if (!prefersPage(ctx)) return answer(ctx, 500, SERVER_ERROR_BODY);
        return withViews(ctx, () => renderErrorPage(ctx, { reason: 'server', status: 500, locale: locale(ctx, config) }));
      }
      countStorageError(error);
      return withViews(ctx, () => unavailable(ctx, config, prefersPage(ctx)));
    }
    if (!outages.has(ctx.req) || ctx.status !== 500 || ctx.headerSent) return;
    await unavailable(ctx, config, !!ctx.response.is('html'));
  };
}

async function unavailable(ctx: Koa.Context, config: Pick<SignInConfig, 'languages'>, page: boolean): Promise<void> {
  // One line for the operator: which route, no request data (bodies and headers carry secrets).
  securityEvent('storage.unavailable', { endpoint: ctx.path });
  if (page) return renderUnavailablePage(ctx, locale(ctx, config));
  answer(ctx, 503, UNAVAILABLE_BODY);
  ctx.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
}

/** Whether koa-views has run for this request (its typings declare `render` on every context). */
const hasViews = (ctx: Koa.Context): boolean => typeof (ctx as { render?: unknown }).render === 'function';

function answer(ctx: Koa.Context, status: number, body: object): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { ...body };
}

/** A browser navigating (the authorization endpoint, a logout page) gets a page; an API client JSON. */
function prefersPage(ctx: Koa.Context): boolean {
  return ctx.method === 'GET' && ctx.accepts('json', 'html') === 'html';
}

function locale(ctx: Koa.Context, config: Pick<SignInConfig, 'languages'>) {
  return localeFor(ctx, config, typeof ctx.query.ui_locales === 'string' ? ctx.query.ui_locales : undefined);
}

/** Method, path and the error with its stack: never a body, a query or a header (they carry secrets). */
function logUnexpected(ctx: Pick<Koa.Context, 'method' | 'path'>, error: unknown): void {
  unexpectedError(error, { endpoint: ctx.path });
}

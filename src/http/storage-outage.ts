// A storage outage is a 503 the client may retry, not a 500: this module turns the engine's generic
// `server_error` into `temporarily_unavailable` when (and only when) Postgres or Redis was unreachable.
//
// The engine catches every error itself and answers 500 before our middleware sees anything, so the
// two halves meet through the request: its `server_error` event marks the request with the outage,
// and the middleware around the engine rewrites a marked 500 on the way out.
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { isStorageUnavailable } from '../../adapters/unavailable.ts';
import type { SignInConfig } from '../config/schema.ts';
import { renderUnavailablePage, UNAVAILABLE_CODE, UNAVAILABLE_RETRY_SECONDS } from '../pages/error-page.ts';
import { localeFor } from '../pages/language.ts';

/** RFC 6749 §4.1.2.1 names the code; the description is for developers and says nothing internal. */
export const UNAVAILABLE_BODY = Object.freeze({
  error: UNAVAILABLE_CODE,
  error_description: 'the service is temporarily unavailable, try again shortly',
});

// Keyed by the Node request, which the engine's context and ours share whatever koa-mount does.
const outages = new WeakSet<IncomingMessage>();

/** Marks requests whose engine error was a storage outage. Call once per provider. */
export function markStorageOutages(provider: Provider): void {
  provider.on('server_error', (ctx: Koa.Context, error: unknown) => {
    if (isStorageUnavailable(error)) outages.add(ctx.req);
  });
}

/** Around the engine: a 500 caused by an outage becomes a 503, as JSON or as the localized page. */
export function storageOutageResponses(config: Pick<SignInConfig, 'languages'>): Koa.Middleware {
  return async function storageOutage(ctx, next) {
    await next();
    if (!outages.has(ctx.req) || ctx.status !== 500 || ctx.headerSent) return;
    // One line for the operator: which backend, no request data (bodies and headers carry secrets).
    console.error('storage unavailable', { method: ctx.method, path: ctx.path });
    if (ctx.response.is('html')) {
      const uiLocales = typeof ctx.query.ui_locales === 'string' ? ctx.query.ui_locales : undefined;
      await renderUnavailablePage(ctx, localeFor(ctx, config, uiLocales));
      return;
    }
    ctx.status = 503;
    ctx.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...UNAVAILABLE_BODY };
  };
}

// Once an engine answer has gone out, its request context lets go of the request, the response, the state,
// the cookie jar and what the engine's own request context (`ctx.oidc`) found. Why: the engine's first
// middleware (`ensureOIDC`) gives every context a getter made for it, and V8 keeps accessor pairs in the old
// generation, so until the next full collection each context, and everything it still points to, is copied
// by every young-generation collection: most of every request. Once let go of, the node request and
// response, the header maps, the state and the engine's models are not copied: about a tenth of a userinfo
// call's CPU (docs/architecture/decisions.md).
//
// Only where nothing can read the context afterwards:
// - a context made by this service's own Koa app (`signin serve`, `app.callback()`); an embedding host
//   that mounts the app (koa-mount) passes its own context, which it may still read, and keeps it whole;
// - an answer that is not a stream: Koa reports a stream's late error through the context.
// The request log and the metrics report when the chain returns, before the answer is written; Koa's own
// listener of the response's end (on-finished, for a late error) is registered before any middleware runs,
// and reads nothing when the response ended without an error.
import { Stream } from 'node:stream';
import type Koa from 'koa';

/** What a released context no longer holds: every other field is the app's or a small value. */
const CONTEXT_FIELDS = ['req', 'res', 'request', 'response', 'state', 'cookies'] as const;
/** What the engine's request context holds of one request: the context, its models, parameters and body. */
const ENGINE_CONTEXT_FIELDS = ['ctx', 'entities', 'params', 'body', 'claims', 'resourceServers'] as const;

type Holder = Record<string, unknown>;

function letGo(holder: Holder, fields: readonly string[]): void {
  for (const field of fields) holder[field] = undefined;
}

export function releaseContextAfterAnswer(app: Koa): Koa.Middleware {
  return function releaseContext(ctx, next) {
    if (ctx.app !== app) return next();
    ctx.res.once('finish', () => {
      if (ctx.body instanceof Stream) return;
      // The engine's request context, behind a getter that cannot be removed but whose object can be
      // emptied; read before the request goes (an engine route always made it, so this builds nothing).
      const engineContext = (ctx as { oidc?: Holder }).oidc;
      letGo(ctx as unknown as Holder, CONTEXT_FIELDS);
      if (engineContext) letGo(engineContext, ENGINE_CONTEXT_FIELDS);
    });
    return next();
  };
}

// Once an engine answer has gone out, its request context lets go of the request, the response, the state,
// the cookie jar and what the engine's own request context (`ctx.oidc`) found. Why: the engine's first
// middleware (`ensureOIDC`) gives every context a getter made for it, and V8 keeps accessor pairs in the old
// generation, so until the next full collection each context, and everything it still points to, is copied
// by every young-generation collection: most of every request. Let go of, the node request and response,
// the header maps, the state and the engine's models are not copied (bench/README.md, "The engine's getter
// and the young generation").
//
// Only where nothing can read the context afterwards:
// - a context made by this service's own Koa app (`signin serve`, `app.callback()`); an embedding host
//   that mounts the app (koa-mount) passes its own context, which it may still read, and keeps it whole;
// - an answer that is not a stream: Koa reports a stream's late error through the context.
// The request log and the metrics report when the chain returns, before the answer is written, and every
// other listener of the response's end is registered by an outer middleware, so it runs before this one.
import { Stream } from 'node:stream';
import type Koa from 'koa';

/** The fields a released context no longer holds: every other one is the app's or a small value. */
interface Releasable {
  req?: unknown;
  res?: unknown;
  request?: unknown;
  response?: unknown;
  state?: unknown;
  cookies?: unknown;
  /** The engine's request context: a getter that cannot be removed, but whose object can be emptied. */
  readonly oidc?: EngineRequestContext;
}

/** What the engine's request context holds of one request: its models, parameters and body. */
interface EngineRequestContext {
  ctx?: unknown;
  entities?: unknown;
  params?: unknown;
  body?: unknown;
  claims?: unknown;
  resourceServers?: unknown;
}

export function releaseContextAfterAnswer(app: Koa): Koa.Middleware {
  return function releaseContext(ctx, next) {
    if (ctx.app !== app) return next();
    ctx.res.once('finish', () => {
      if (ctx.body instanceof Stream) return;
      const released = ctx as Releasable;
      // Read before the request goes: an engine route always made its context, so this builds nothing.
      const oidc = released.oidc;
      released.req = undefined;
      released.res = undefined;
      released.request = undefined;
      released.response = undefined;
      released.state = undefined;
      released.cookies = undefined;
      if (oidc) {
        oidc.ctx = undefined;
        oidc.entities = undefined;
        oidc.params = undefined;
        oidc.body = undefined;
        oidc.claims = undefined;
        oidc.resourceServers = undefined;
      }
    });
    return next();
  };
}

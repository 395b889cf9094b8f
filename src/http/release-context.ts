// Once an engine answer has gone out, its request context lets go of the request, the response and the
// state. Why: the engine's first middleware (`ensureOIDC`) gives every context a getter made for it, and
// V8 keeps accessor pairs in the old generation, so until the next full collection each context, and
// everything it still points to, is copied by every young-generation collection: most of every request.
// Let go of, the node request and response, the header maps and the state are not copied; a userinfo call
// costs about a tenth less CPU (bench/README.md, "The engine's getter and the young generation").
//
// Only where nothing can read the context afterwards:
// - a context made by this service's own Koa app (`signin serve`, `app.callback()`); an embedding host
//   that mounts the app (koa-mount) passes its own context, which it may still read, and keeps it whole;
// - an answer that is not a stream: Koa reports a stream's late error through the context.
import { Stream } from 'node:stream';
import type Koa from 'koa';

/** The fields a released context no longer holds: every other one is the app's or a small value. */
interface Releasable {
  req?: unknown;
  res?: unknown;
  request?: unknown;
  response?: unknown;
  state?: unknown;
}

export function releaseContextAfterAnswer(app: Koa): Koa.Middleware {
  return function releaseContext(ctx, next) {
    if (ctx.app !== app) return next();
    ctx.res.once('finish', () => {
      if (ctx.body instanceof Stream) return;
      const released = ctx as Releasable;
      released.req = undefined;
      released.res = undefined;
      released.request = undefined;
      released.response = undefined;
      released.state = undefined;
    });
    return next();
  };
}

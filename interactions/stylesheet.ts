// GET /static/app.css. Pages link it with a content hash in the URL, so it may be cached for good.
import type Koa from 'koa';
import { stylesheet } from '../src/pages/stylesheet.ts';

export function serveStylesheet(): Koa.Middleware {
  return async function serveStylesheetRoute(ctx) {
    const css = stylesheet();
    ctx.set({
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: css.etag,
      'X-Content-Type-Options': 'nosniff',
    });
    ctx.type = 'text/css; charset=utf-8';
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = css.body;
  };
}

// The route a request matched, as its pattern (`/interaction/:uid`, `/oauth/token`), for the request
// log and the metrics: never the raw path, which carries ids, and whose variety would make a metric
// label unbounded. The engine's router and @koa/router both record the pattern they matched.
import type Koa from 'koa';

// Answered before any router, by a path of their own.
const FIXED = new Set(['/healthz', '/readyz', '/metrics', '/static/logo']);

export function routePattern(ctx: Koa.Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  // Everything else is one of two labels: a 404, or a request refused at the edge.
  if (ctx.status === 404) return '(unmatched)';
  return FIXED.has(ctx.path) ? ctx.path : '(other)';
}

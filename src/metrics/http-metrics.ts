// Request counts and latency per route pattern and status. Runs around everything but the request id,
// and costs each request one clock read, one counter increment and one histogram observation.
import type Koa from 'koa';
import { routePattern } from '../http/route-pattern.ts';
import { observeRequest } from './registry.ts';

export function httpMetrics(): Koa.Middleware {
  return async function measureRequest(ctx, next) {
    const start = performance.now();
    let status: number | undefined;
    try {
      await next();
    } catch (error) {
      const thrown = (error as { status?: unknown }).status;
      status = typeof thrown === 'number' && thrown >= 400 && thrown < 600 ? thrown : 500;
      throw error;
    } finally {
      observeRequest(ctx.method, routePattern(ctx), status ?? ctx.status, (performance.now() - start) / 1000);
    }
  };
}

// Request counts and latency per route pattern and status. Runs around everything but the request id,
// and costs each request one clock read, one counter increment and one histogram observation.
import type Koa from 'koa';
import { afterAnswer } from '../http/answered.ts';
import { observeRequest } from './registry.ts';

export function httpMetrics(): Koa.Middleware {
  return function measureRequest(ctx, next) {
    return afterAnswer(ctx, next, ({ route, status, seconds }) => observeRequest(ctx.method, route, status, seconds));
  };
}

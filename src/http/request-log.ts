// The request log: one JSON line per request, through the service's logger (the one the security events
// use), written when the answer is known. It says what an access log must and nothing a request carried:
// the method, the route pattern (`/interaction/:uid`, never the path with its ids), the status, the
// time taken and the request id. No query string, header, cookie, body or token has a field here.
// Health checks and metrics scrapes come every few seconds from the infrastructure: they are logged at
// debug, so that the info log shows the users' requests.
import type Koa from 'koa';
import { currentRequest } from '../log/request-context.ts';
import type { Logger } from '../log/logger.ts';
import { routePattern } from './route-pattern.ts';

const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** Runs inside the request-id middleware, whose context gives the line its request id. */
export function requestLog(logger: Logger): Koa.Middleware {
  return async function logRequest(ctx, next) {
    const start = performance.now();
    let status: number | undefined;
    try {
      await next();
    } catch (error) {
      // What escaped every face: Koa answers it with its status, else 500.
      const thrown = (error as { status?: unknown }).status;
      status = typeof thrown === 'number' && thrown >= 400 && thrown < 600 ? thrown : 500;
      throw error;
    } finally {
      const route = routePattern(ctx);
      const line = {
        msg: 'request',
        request_id: currentRequest()?.requestId,
        ip: ctx.ip,
        method: ctx.method,
        route,
        status: status ?? ctx.status,
        duration_ms: Math.round((performance.now() - start) * 10) / 10,
      };
      if (QUIET_ROUTES.has(route)) logger.debug(line);
      else logger.info(line);
    }
  };
}

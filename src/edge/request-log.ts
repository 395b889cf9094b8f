// The request log: one JSON line per request, through the service's logger (the one the security events
// use), written when the answer is known. It says what an access log must and nothing a request carried:
// the method, the route pattern (`/interaction/:uid`, never the path with its ids), the status, the
// time taken and the request id. No query string, header, cookie, body or token has a field here.
// Health checks and metrics scrapes come every few seconds from the infrastructure: they are logged at
// debug, so that the info log shows the users' requests.
import type Koa from 'koa';
import { currentRequest } from '../log/request-context.ts';
import { routineLines, type Logger } from '../log/logger.ts';
import { afterAnswer } from '../http/answered.ts';

const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** Runs inside the request-id middleware, whose context gives the line its request id. */
export function requestLog(logger: Logger): Koa.Middleware {
  const write = routineLines(logger);
  return function logRequest(ctx, next) {
    return afterAnswer(ctx, next, ({ route, status, seconds }) => {
      write(QUIET_ROUTES.has(route) ? 'debug' : 'info', {
        msg: 'request',
        request_id: currentRequest()?.requestId,
        ip: ctx.ip,
        method: ctx.method,
        route,
        status,
        duration_ms: Math.round(seconds * 10_000) / 10,
      });
    });
  };
}

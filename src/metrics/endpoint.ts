// Where Prometheus reads the metrics: GET /metrics, either on a listener of its own (`metrics.port`,
// reachable only from the monitoring network) or on the service's port behind a bearer token
// (`metrics.bearerToken`). Without the token the answer is a 401 that says nothing of the metrics.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import { registry } from './registry.ts';

const METRICS_PATH = '/metrics';

/** On the service's port: /metrics for a caller presenting the token. */
export function metricsRoute(bearerToken: string): Koa.Middleware {
  const expected = digest(bearerToken);
  return async function metrics(ctx, next) {
    if (ctx.path !== METRICS_PATH) return next();
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method !== 'GET') {
      ctx.status = 405;
      ctx.set('Allow', 'GET');
      return;
    }
    const presented = /^Bearer ([^\s]+)$/i.exec(ctx.get('Authorization'))?.[1];
    // Digests of equal length, so the comparison takes the same time whatever was presented.
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { error: 'invalid_token' };
      return;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  };
}

/** A listener that answers only GET /metrics. */
export function startMetricsListener(port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== METRICS_PATH || req.method !== 'GET') {
      res.statusCode = 404;
      return void res.end();
    }
    registry.metrics().then(
      (text) => {
        res.setHeader('Content-Type', registry.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(text);
      },
      () => {
        res.statusCode = 500;
        res.end();
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

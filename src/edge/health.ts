// /healthz says the process is up; /readyz says its storage answers, for a load balancer to tell apart
// an instance to restart from one to take out of rotation while a dependency is down. A store that answers
// but refused a write lately (a full disk, a read-only server) is not ready either: `ready` (pingStorage)
// asks the store guards, which remember it (adapters/guard.ts).
import type Koa from 'koa';

export function healthRoutes(ready: () => Promise<void>, timeoutMs = 2000): Koa.Middleware {
  const readiness = async (ctx: Koa.Context) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      await withTimeout(ready(), timeoutMs);
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable' };
    }
  };
  return (ctx, next) => {
    if (ctx.path === '/healthz' && ctx.method === 'GET') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path === '/readyz' && ctx.method === 'GET') return readiness(ctx);
    return next();
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

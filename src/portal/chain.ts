// Runs middleware in order as one (what koa-compose does; that package is only a transitive
// dependency here, so the portal does not import it).
import type Koa from 'koa';

export function chain(middleware: Koa.Middleware[]): Koa.Middleware {
  return function chained(ctx, next) {
    const run = (i: number): Promise<unknown> => (i === middleware.length ? next() : Promise.resolve(middleware[i](ctx, () => run(i + 1))));
    return run(0) as Promise<void>;
  };
}

// Runs the rest of the chain and reports how the request was answered, even when an error escaped
// every face: the access log and the request metrics both need the same route, status and duration.
import type Koa from 'koa';
import { routePattern } from './route-pattern.ts';

export interface Answer {
  route: string;
  status: number;
  seconds: number;
}

export async function afterAnswer(ctx: Koa.Context, next: Koa.Next, report: (answer: Answer) => void): Promise<void> {
  const start = performance.now();
  let status: number | undefined;
  try {
    await next();
  } catch (error) {
    // Koa answers an escaped error with its status, else 500.
    const thrown = (error as { status?: unknown }).status;
    status = typeof thrown === 'number' && thrown >= 400 && thrown < 600 ? thrown : 500;
    throw error;
  } finally {
    report({ route: routePattern(ctx), status: status ?? ctx.status, seconds: (performance.now() - start) / 1000 });
  }
}

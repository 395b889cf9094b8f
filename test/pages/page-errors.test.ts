import type Koa from 'koa';
import { errors } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { withRequestContext } from '../../src/log/request-context.ts';
import { PageError, pageErrors } from '../../src/pages/page-errors.ts';
import { fakeContext } from './fake-context.ts';

const config = { languages: { default: 'fr' as const, supported: ['fr', 'en'] as ('fr' | 'en')[] } };

function routeContext(request: Parameters<typeof fakeContext>[0] = {}) {
  return Object.assign(fakeContext(request), {
    method: 'POST',
    path: '/interaction/abc/login',
    headerSent: false,
    writable: true,
    state: {},
  });
}
const run = (ctx: ReturnType<typeof routeContext>, error: unknown) =>
  pageErrors(config, { face: 'interaction' })(ctx as unknown as Koa.Context, async () => {
    throw error;
  });

/** Runs `fn` as a request of a service whose log lines are kept. */
async function logged(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', pretty: false, destination: { write: (line: string) => void lines.push(line) } });
  await withRequestContext({ requestId: 'req-1', ip: '203.0.113.1', logger }, fn);
  return lines;
}

describe('pageErrors', () => {
  it('shows an expired interaction as a localized 400 page', async () => {
    const ctx = routeContext({ acceptLanguage: 'en' });
    await run(ctx, new errors.SessionNotFound('interaction session not found'));
    expect(ctx.status).toBe(400);
    expect(ctx.body).toContain('<html lang="en">');
    expect(ctx.body).toContain('Page expired');
    expect(ctx.headers['Cache-Control']).toBe('no-store');
  });

  it('uses the language already chosen for the interaction', async () => {
    const ctx = Object.assign(routeContext({ acceptLanguage: 'en' }), { state: { locale: 'fr' } });
    await run(ctx, new PageError(400, 'unknownClient'));
    expect(ctx.body).toContain('Application inconnue');
  });

  it('logs an unexpected error and shows a generic 500 page without its details', async () => {
    const ctx = Object.assign(routeContext(), { request: { body: { password: 'hunter2' } } });
    const lines = await logged(() => run(ctx, new Error('relation "accounts" does not exist')));
    expect(ctx.status).toBe(500);
    expect(ctx.body).toContain('Service momentanément indisponible');
    expect(ctx.body).not.toContain('accounts');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'error',
      event: 'error.unexpected',
      request_id: 'req-1',
      endpoint: '/interaction/abc/login',
      source: 'interaction',
      err: { message: 'relation "accounts" does not exist', stack: expect.stringContaining('\n    at ') },
    });
    expect(lines[0]).not.toContain('hunter2');
  });

  it('does not log errors the user can fix', async () => {
    const lines = await logged(() => run(routeContext(), new errors.SessionNotFound('interaction session id cookie not found')));
    expect(lines).toEqual([]);
  });
});

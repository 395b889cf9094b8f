// The service's own app lets go of an engine request's context once the answer has gone out, so that
// V8's young-generation collections stop copying it (src/edge/release-context.ts): the request, the
// response, the state and what the engine's request context found. A stream answer keeps its context
// (Koa reports a stream's late error through it), and so does a context made by another app
// (test/embedding/host-context.test.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInService, parseConfig, type SignInService } from '../../src/index.ts';
import { releaseContextAfterAnswer } from '../../src/edge/release-context.ts';

/** Serves `app` on a local port; `get(path)` gives the context of that request once its response has gone out. */
async function serve(app: Koa): Promise<{ get(path: string): Promise<Koa.Context>; close(): Promise<void> }> {
  let last: Koa.Context | undefined;
  app.middleware.unshift((ctx, next) => {
    last = ctx;
    return next();
  });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async get(path) {
      const res = await fetch(url + path);
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return last!;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the service’s own app', () => {
  let service: SignInService;
  let served: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    const config = parseConfig({
      issuer: 'http://127.0.0.1:3000',
      secrets: { cookieKeys: [randomBytes(32).toString('hex')], pairwiseSalt: randomBytes(32).toString('hex') },
      storage: { kind: 'embedded', dataDir: 'memory://' },
      log: { level: 'silent' },
    });
    service = await createSignInService(config, { sweepIntervalSeconds: 0 });
    served = await serve(service.app);
  });
  afterAll(async () => {
    await served.close();
    await service.close();
  });

  it('lets go of an engine request’s request, response and state after the answer', async () => {
    for (const path of ['/.well-known/openid-configuration', '/oauth/userinfo']) {
      const ctx = await served.get(path);
      expect({ req: ctx.req, res: ctx.res, request: ctx.request, response: ctx.response, state: ctx.state }).toEqual({
        req: undefined,
        res: undefined,
        request: undefined,
        response: undefined,
        state: undefined,
      });
      // The engine's own request context stays reachable through its getter; what it found does not.
      const oidc = (ctx as unknown as { oidc: Record<string, unknown> }).oidc;
      expect({ ctx: oidc.ctx, entities: oidc.entities, params: oidc.params, body: oidc.body }).toEqual({
        ctx: undefined,
        entities: undefined,
        params: undefined,
        body: undefined,
      });
    }
  });

  it('keeps a page request’s context whole', async () => {
    const ctx = await served.get('/account');
    expect(ctx.req).toBeDefined();
    expect(ctx.state).toBeDefined();
  });
});

describe('releaseContextAfterAnswer', () => {
  it('keeps the context of a stream answer', async () => {
    const app = new Koa();
    app.use(releaseContextAfterAnswer(app));
    app.use((ctx) => {
      ctx.body = Readable.from(['streamed']);
    });
    const served = await serve(app);
    const ctx = await served.get('/');
    await served.close();
    expect(ctx.req).toBeDefined();
    expect(ctx.response).toBeDefined();
  });

  it('releases the context of any other answer of its own app', async () => {
    const app = new Koa();
    app.use(releaseContextAfterAnswer(app));
    app.use((ctx) => {
      ctx.body = { answered: true };
    });
    const served = await serve(app);
    const ctx = await served.get('/');
    await served.close();
    expect(ctx.req).toBeUndefined();
    expect(ctx.state).toBeUndefined();
  });
});

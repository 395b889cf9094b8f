// A host that mounts the service keeps its request context whole after the answer: the service lets go
// of the contexts its own app makes (src/edge/release-context.ts), never of a host's, which the host's
// own code (an access log, a metrics hook) may read once the response has gone out.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInService, parseConfig, type SignInService } from '../../src/index.ts';

let url: string;
let service: SignInService;
const server = createServer();
/** What the host read of each context once its response had gone out, or the error reading it threw. */
const readAfterAnswer: Array<{ path: string; status?: number; mark?: string; error?: string }> = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = parseConfig({
    issuer: `${url}/auth`,
    secrets: { cookieKeys: [randomBytes(32).toString('hex')], pairwiseSalt: randomBytes(32).toString('hex') },
    storage: { kind: 'embedded', dataDir: 'memory://' },
    log: { level: 'silent' },
  });
  service = await createSignInService(config, { sweepIntervalSeconds: 0 });
  const host = new Koa();
  host.use((ctx, next) => {
    ctx.state.hostMark = 'host';
    const path = ctx.path;
    // Read a moment after the answer has gone out, as a log or metrics hook that batches its work would.
    ctx.res.once('finish', () =>
      setImmediate(() => {
        try {
          readAfterAnswer.push({ path, status: ctx.status, mark: ctx.state.hostMark as string });
        } catch (error) {
          readAfterAnswer.push({ path, error: String(error) });
        }
      }),
    );
    return next();
  });
  host.use(mount('/auth', service.app));
  server.on('request', host.callback());
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await service.close();
});

describe('a host context after the answer', () => {
  it('is still whole for the engine’s answers and the pages alike', async () => {
    const paths = ['/auth/.well-known/openid-configuration', '/auth/oauth/userinfo', '/auth/oauth/jwks', '/auth/login'];
    const statuses = [];
    for (const path of paths) {
      const res = await fetch(url + path);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 401, 200, expect.any(Number)]);
    // 'finish' is emitted once the last bytes are handed to the socket, which can be after the client has them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readAfterAnswer.map((read) => read.path)).toEqual(paths);
    for (const [i, read] of readAfterAnswer.entries()) {
      expect(read.error).toBeUndefined();
      expect(read.status).toBe(statuses[i]);
      expect(read.mark).toBe('host');
    }
  });
});

// A host Koa application as most are written: its own routes, a body parser in front of everything
// (@koa/bodyparser), and the sign-in service mounted under /auth with an issuer that says so. Every
// response that leaves the server is watched: each redirect and each cookie must stay under /auth.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import mount from 'koa-mount';
import { createSignInService, parseConfig, type SignInService } from '../../src/index.ts';
import type { SignInConfigInput } from '../../src/config/schema.ts';

export const PREFIX = '/auth';

export interface HostApp {
  /** The host's origin (http://127.0.0.1:port). */
  origin: string;
  /** The service's issuer: the origin and the prefix. */
  issuer: string;
  service: SignInService;
  /** Every Location and Set-Cookie header that left the server, with the request it answered. */
  responses: Array<{ method: string; url: string; status: number; location?: string; cookies: string[] }>;
  stop(): Promise<void>;
}

export async function startHostApp(overrides: Partial<SignInConfigInput> = {}): Promise<HostApp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = origin + PREFIX;
  const config = parseConfig({
    issuer,
    secrets: { cookieKeys: [randomBytes(32).toString('hex')], pairwiseSalt: randomBytes(32).toString('hex') },
    storage: { kind: 'embedded', dataDir: 'memory://' },
    keys: { algorithms: ['RS256'] },
    log: { level: 'silent' },
    ...overrides,
  });
  const service = await createSignInService(config, { sweepIntervalSeconds: 0 });

  const host = new Koa();
  host.keys = config.secrets.cookieKeys;
  // The host parses every body first, as most Koa apps do.
  host.use(bodyParser());
  host.use(async (ctx, next) => {
    if (ctx.path === '/hello') {
      ctx.body = { hello: 'host' };
      return;
    }
    if (ctx.path === '/echo' && ctx.method === 'POST') {
      ctx.body = { received: ctx.request.body };
      return;
    }
    await next();
  });
  host.use(mount(PREFIX, service.app));

  const responses: HostApp['responses'] = [];
  const handle = host.callback();
  server.on('request', (req, res) => {
    res.on('finish', () => {
      const headers = res.getHeaders();
      const cookies = ([] as string[]).concat((headers['set-cookie'] as string | string[] | undefined) ?? []);
      responses.push({
        method: req.method ?? '',
        url: req.url ?? '',
        status: res.statusCode,
        location: headers.location as string | undefined,
        cookies,
      });
    });
    void handle(req, res);
  });

  return {
    origin,
    issuer,
    service,
    responses,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
    },
  };
}

/** The URLs a page points the browser to: links, form actions, stylesheets, scripts, images. */
export function pageUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:href|action|src)="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

/**
 * Whether a URL the service handed out stays under the prefix when it points at the host: another
 * origin (the application's callback, a privacy policy) is not the service's to prefix.
 */
export function outsidePrefix(url: string, origin: string): boolean {
  const target = new URL(url, `${origin}${PREFIX}/`);
  if (target.origin !== origin) return false;
  return !(target.pathname === PREFIX || target.pathname.startsWith(`${PREFIX}/`));
}

/** The Path attribute of a Set-Cookie header. */
export const cookiePath = (header: string): string => /;\s*path=([^;]*)/i.exec(header)?.[1] ?? '/';

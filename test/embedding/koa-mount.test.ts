// Embedding: the service mounted with koa-mount inside a host Koa app that keeps its own routes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInService, parseConfig, type SignInService } from '../../src/index.ts';
import { relyingParty } from '../support/relying-party.ts';
import { signIn } from '../support/flow.ts';

let url: string;
let service: SignInService;
const server = createServer();

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = parseConfig({
    issuer: url,
    secrets: { cookieKeys: [randomBytes(32).toString('hex')], pairwiseSalt: randomBytes(32).toString('hex') },
    storage: { kind: 'embedded', dataDir: 'memory://' },
  });
  service = await createSignInService(config, { sweepIntervalSeconds: 0 });
  const host = new Koa();
  host.keys = config.secrets.cookieKeys;
  host.use(async (ctx, next) => {
    if (ctx.path === '/hello') {
      ctx.body = { hello: 'host' };
      return;
    }
    await next();
  });
  host.use(mount(service.app));
  server.on('request', host.callback());
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await service.close();
});

describe('embedded in a host Koa app', () => {
  it('keeps the host routes and runs the whole sign-in', async () => {
    expect(await (await fetch(`${url}/hello`)).json()).toEqual({ hello: 'host' });
    const { accounts, clients } = service.context;
    const user = { email: 'mariam@example.org', password: 'une phrase de passe solide', username: 'mariam', firstName: 'Mariam' };
    await accounts.create({ ...user, emailVerified: true });
    const { client, clientSecret } = await clients.create({
      name: 'Hôte',
      description: 'Application hôte',
      appType: 'web',
      redirectUris: ['https://host.example.org/cb'],
      scopes: ['openid', 'email'],
    });
    const rp = await relyingParty(url, {
      clientId: client.clientId,
      clientSecret,
      redirectUri: 'https://host.example.org/cb',
      scopes: ['openid', 'email'],
    });
    const { tokens } = await signIn(url, rp, user);
    expect(tokens.scope).toBe('openid email');
  });
});

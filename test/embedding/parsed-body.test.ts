// A host parser that keeps only the parsed fields (as koa-body does, without the raw text): the forms are
// read from them under the same rules, and anything but a flat form (nested fields, numbers) is refused
// as unreadable. A spent stream with nothing kept is refused too, never waited on.
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import mount from 'koa-mount';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInService, parseConfig, type SignInService } from '../../src/index.ts';

let service: SignInService;
let host: Koa;

beforeAll(async () => {
  const config = parseConfig({
    issuer: 'http://127.0.0.1:1/auth',
    secrets: { cookieKeys: [randomBytes(32).toString('hex')], pairwiseSalt: randomBytes(32).toString('hex') },
    storage: { kind: 'embedded', dataDir: 'memory://' },
    keys: { algorithms: ['RS256'] },
    log: { level: 'silent' },
  });
  service = await createSignInService(config, { sweepIntervalSeconds: 0 });
  host = new Koa();
  host.keys = config.secrets.cookieKeys;
  // Reads the stream and keeps what a test says the parser produced (`x-parsed`, JSON), or nothing.
  host.use(async (ctx, next) => {
    if (ctx.method === 'POST') {
      for await (const chunk of ctx.req) void chunk;
      const parsed = ctx.get('x-parsed');
      if (parsed) (ctx.request as unknown as { body: unknown }).body = JSON.parse(parsed);
    }
    await next();
  });
  host.use(mount('/auth', service.app));
});
afterAll(() => service?.close());

const post = (path: string, parsed?: unknown) => {
  const req = request(host.callback()).post(path).type('form').send('ignored=1');
  return parsed === undefined ? req : req.set('x-parsed', JSON.stringify(parsed));
};

describe('a body parsed by the host, without its raw text', () => {
  it('is read as the form: a flat one reaches the anti-forgery check (403 for a wrong token)', async () => {
    const res = await post('/auth/password/forgot', { csrf: 'x'.repeat(43), email: 'awa@example.org' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Formulaire expiré');
  });

  it('refuses nested fields and non-text values as unreadable (400), without waiting', async () => {
    for (const parsed of [{ csrf: { a: 'b' } }, { email: 42 }, ['a'], { list: ['a', { b: 1 }] }]) {
      const res = await post('/auth/password/forgot', parsed);
      expect(res.status, JSON.stringify(parsed)).toBe(400);
    }
  });

  it('refuses a spent stream that left nothing to read, on the pages and at the token endpoint', async () => {
    const page = await post('/auth/password/forgot');
    expect(page.status).toBe(400);
    const token = await post('/auth/oauth/token');
    expect(token.status).toBe(400);
    expect(token.body.error).toBe('invalid_request');
  });

  it('hands the engine the parsed fields: a token request is answered, not hung', async () => {
    const res = await post('/auth/oauth/token', {
      grant_type: 'authorization_code',
      code: 'nope',
      client_id: 'unknown',
      client_secret: 's',
      redirect_uri: 'https://x.example.org/cb',
      code_verifier: 'v'.repeat(43),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});

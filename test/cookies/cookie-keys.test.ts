// Signed cookies: the signer the service gives Koa and the engine signs and checks exactly as the
// keygrip package did (cookies from before keep working), rotates keys the same way, and refuses any
// other text than the signature itself.
import { createHmac } from 'node:crypto';
import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cookieKeys } from '../../src/http/cookie-keys.ts';

/** keygrip's signature: HMAC-SHA1, base64 with `/+=` made URL-safe. */
function keygripSignature(secret: string, data: string): string {
  return createHmac('sha1', secret)
    .update(data)
    .digest('base64')
    .replace(/[/+=]/g, (c) => ({ '/': '_', '+': '-', '=': '' })[c] ?? '');
}

const NEW = 'la-cle-du-jour-0123456789abcdef0123456789';
const OLD = 'la-cle-d-hier-0123456789abcdef01234567890';

describe('cookie keys', () => {
  const keys = cookieKeys([NEW, OLD]);

  it('signs with the first key, as keygrip did', () => {
    expect(keys.sign('_session=abc')).toBe(keygripSignature(NEW, '_session=abc'));
  });

  it('accepts a signature by any key and says which one, so a rotated key keeps its cookies', () => {
    expect(keys.index('_session=abc', keygripSignature(NEW, '_session=abc'))).toBe(0);
    expect(keys.index('_session=abc', keygripSignature(OLD, '_session=abc'))).toBe(1);
    expect(keys.verify('_session=abc', keygripSignature(OLD, '_session=abc'))).toBe(true);
  });

  it('refuses a signature of other data, by another key, of another length or spelling', () => {
    const good = keygripSignature(NEW, '_session=abc');
    expect(keys.index('_session=abd', good)).toBe(-1);
    expect(keys.index('_session=abc', keygripSignature('une-autre-cle-0123456789abcdef0123456', '_session=abc'))).toBe(-1);
    expect(keys.index('_session=abc', `${good}A`)).toBe(-1);
    expect(keys.index('_session=abc', good.slice(0, -1))).toBe(-1);
    // Standard base64 of the same bytes: the same digest, another text; keygrip refused it too.
    const standard = createHmac('sha1', NEW).update('_session=abc').digest('base64');
    expect(keys.index('_session=abc', standard)).toBe(-1);
    expect(keys.index('_session=abc', '')).toBe(-1);
    expect(keys.index('_session=abc', 'é'.repeat(27))).toBe(-1);
    expect(keys.verify('_session=abc', undefined as unknown as string)).toBe(false);
  });

  it('needs a key', () => {
    expect(() => cookieKeys([])).toThrow(/at least one secret/);
  });

  it('signs and checks the cookies of a Koa app', async () => {
    const app = new Koa();
    app.keys = keys;
    app.use((ctx) => {
      if (ctx.path === '/set') ctx.cookies.set('_session', 'abc', { signed: true });
      else ctx.body = { session: ctx.cookies.get('_session', { signed: true }) ?? null };
    });
    const set = await request(app.callback()).get('/set');
    const cookies = (set.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
    expect(cookies).toEqual(['_session=abc', `_session.sig=${keygripSignature(NEW, '_session=abc')}`]);

    const read = await request(app.callback()).get('/').set('Cookie', cookies.join('; '));
    expect(read.body).toEqual({ session: 'abc' });
    const forged = await request(app.callback()).get('/').set('Cookie', `_session=abd; ${cookies[1]}`);
    expect(forged.body).toEqual({ session: null });
  });
});

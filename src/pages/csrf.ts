// Anti-forgery for the forms that are not bound to an interaction (account page, password reset):
// a signed double-submit token. The random value lives in an HttpOnly, SameSite=Lax cookie signed with
// the service's cookie keys, and each form repeats it in a hidden field; a POST is accepted only when
// both match. Another site can neither read the cookie nor forge its signature.
// Interaction forms need no token: their URL carries the interaction uid, which must match the
// engine's signed interaction cookie of the same browser (see interactions/interaction.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { setPageCookie } from './cookies.ts';

export const CSRF_COOKIE = 'csrf';
export const CSRF_FIELD = 'csrf';
const SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The token of this browser, creating (and setting) it on first use. */
export function csrfToken(ctx: Pick<Koa.Context, 'cookies'>, issuer: string): string {
  const existing = ctx.cookies.get(CSRF_COOKIE, { signed: true });
  if (existing && SHAPE.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setPageCookie(ctx, CSRF_COOKIE, token, { issuer, signed: true });
  return token;
}

/** True when the form field repeats the cookie's token. */
export function csrfValid(ctx: Pick<Koa.Context, 'cookies'>, submitted: string | null): boolean {
  const expected = ctx.cookies.get(CSRF_COOKIE, { signed: true });
  if (!expected || !submitted || !SHAPE.test(expected)) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

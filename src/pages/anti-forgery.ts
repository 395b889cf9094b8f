// Anti-forgery for the forms that are not bound to an interaction. Every such form carries a token in
// its `csrf` field, and a post is read only when that field repeats the token the server expects:
//  - pages of any visitor (account page, e-mail links): a signed double-submit token. The random value
//    lives in an HttpOnly, SameSite=Lax cookie signed with the service's cookie keys; another site can
//    neither read the cookie nor forge its signature.
//  - pages behind a session of their own (the portal): a synchronizer token kept inside that session,
//    so that it changes with each sign-in and dies with the session.
// Interaction forms need no token: their URL carries the interaction uid, which must match the
// engine's signed interaction cookie of the same browser (see interactions/interaction.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { securityEvent } from '../log/security-log.ts';
import { setPageCookie } from './cookies.ts';
import { readFormBody } from './form-body.ts';
import { PageError } from './page-errors.ts';

export const CSRF_COOKIE = 'csrf';
export const CSRF_FIELD = 'csrf';
const SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new random token (43 base64url characters). */
export const newFormToken = (): string => randomBytes(32).toString('base64url');

/** The double-submit token of this browser, creating (and setting) it on first use. */
export function csrfToken(ctx: Pick<Koa.Context, 'cookies'>, issuer: string): string {
  const existing = browserToken(ctx);
  if (existing) return existing;
  const token = newFormToken();
  setPageCookie(ctx, CSRF_COOKIE, token, { issuer, signed: true });
  return token;
}

function browserToken(ctx: Pick<Koa.Context, 'cookies'>): string | undefined {
  const token = ctx.cookies.get(CSRF_COOKIE, { signed: true });
  return token && SHAPE.test(token) ? token : undefined;
}

/** True when the form field repeats the expected token (compared in constant time). */
export function tokensMatch(expected: string | undefined, submitted: string | null): boolean {
  if (!expected || !submitted) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A posted form of a page of any visitor: refused (403) unless it repeats this browser's token. */
export function readCheckedForm(ctx: Koa.Context): Promise<URLSearchParams> {
  return readFormWithToken(ctx, browserToken(ctx));
}

/** A posted form of a page behind a session: refused (403) unless it repeats the session's token. */
export async function readFormWithToken(ctx: Koa.Context, expected: string | undefined): Promise<URLSearchParams> {
  const body = await readFormBody(ctx);
  const submitted = body.get(CSRF_FIELD);
  if (!tokensMatch(expected, submitted)) {
    // A stale tab does this too; a stream of them from one IP is a forgery attempt.
    securityEvent('anti_forgery.rejected', {
      endpoint: ctx.path,
      reason: !expected ? 'no_expected_token' : !submitted ? 'missing_token' : 'token_mismatch',
    });
    throw new PageError(403, 'formExpired');
  }
  return body;
}

// The portal session: which account is signed in to the portal, and the CSRF token of its forms.
// It is the portal's own cookie, independent of the service's session: signing out of the portal
// leaves the user signed in to the service (single sign-on), as with any other application.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import type { CookieJar } from './cookies.ts';

export const SESSION_COOKIE = 'portal_session';
export const SESSION_SECONDS = 8 * 3600;

export interface PortalSession {
  accountId: string;
  /** Synchronizer token: every form carries it, every POST must send it back. */
  csrf: string;
  expiresAt: number;
}

interface Stored {
  a: string;
  c: string;
  x: number;
}

export function startSession(ctx: Pick<Koa.Context, 'cookies'>, jar: CookieJar, accountId: string): PortalSession {
  const session = { accountId, csrf: randomBytes(32).toString('base64url'), expiresAt: Date.now() + SESSION_SECONDS * 1000 };
  jar.write(ctx, SESSION_COOKIE, { a: session.accountId, c: session.csrf, x: session.expiresAt } satisfies Stored, SESSION_SECONDS);
  return session;
}

/** The session of this request; the expiry inside the signed value bounds a cookie kept beyond its max-age. */
export function readSession(ctx: Pick<Koa.Context, 'cookies'>, jar: CookieJar): PortalSession | undefined {
  const stored = jar.read<Stored>(ctx, SESSION_COOKIE);
  if (!stored || typeof stored.a !== 'string' || typeof stored.c !== 'string' || typeof stored.x !== 'number') return undefined;
  if (stored.x < Date.now()) return undefined;
  return { accountId: stored.a, csrf: stored.c, expiresAt: stored.x };
}

export function endSession(ctx: Pick<Koa.Context, 'cookies'>, jar: CookieJar): void {
  jar.clear(ctx, SESSION_COOKIE);
}

export function csrfMatches(session: PortalSession, presented: string | null): boolean {
  if (!presented) return false;
  const expected = Buffer.from(session.csrf);
  const actual = Buffer.from(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

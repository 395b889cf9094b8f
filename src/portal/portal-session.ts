// The portal session: which account is signed in to the portal, and the anti-forgery token of its forms
// (a synchronizer token, see src/pages/anti-forgery.ts). It is the portal's own cookie: signing out of
// the portal leaves the user signed in to the service (single sign-on), as with any other application.
// The other way round, it never outlives the service session it was opened in, so that "sign out
// everywhere" and a password reset end it too.
import type Koa from 'koa';
import { newFormToken } from '../pages/anti-forgery.ts';
import type { CookieJar } from '../pages/cookies.ts';

export const SESSION_COOKIE = 'portal_session';
export const SESSION_SECONDS = 8 * 3600;

export interface PortalSession {
  accountId: string;
  /** uid of the service session the portal was signed in through. */
  serviceSessionUid?: string;
  /** Synchronizer token: every form carries it, every POST must send it back. */
  csrf: string;
  expiresAt: number;
}

interface Stored {
  a: string;
  u?: string;
  c: string;
  x: number;
}

export function startSession(ctx: Pick<Koa.Context, 'cookies'>, jar: CookieJar, accountId: string, serviceSessionUid?: string): PortalSession {
  const session = { accountId, serviceSessionUid, csrf: newFormToken(), expiresAt: Date.now() + SESSION_SECONDS * 1000 };
  const stored: Stored = { a: session.accountId, u: serviceSessionUid, c: session.csrf, x: session.expiresAt };
  jar.write(ctx, SESSION_COOKIE, stored, SESSION_SECONDS);
  return session;
}

/** The session of this request; the expiry inside the signed value bounds a cookie kept beyond its max-age. */
export function readSession(ctx: Pick<Koa.Context, 'cookies'>, jar: CookieJar): PortalSession | undefined {
  const stored = jar.read<Stored>(ctx, SESSION_COOKIE);
  if (!stored || typeof stored.a !== 'string' || typeof stored.c !== 'string' || typeof stored.x !== 'number') return undefined;
  if (stored.x < Date.now()) return undefined;
  return { accountId: stored.a, serviceSessionUid: typeof stored.u === 'string' ? stored.u : undefined, csrf: stored.c, expiresAt: stored.x };
}

export function endSession(ctx: Pick<Koa.Context, 'cookies'>, jar: CookieJar): void {
  jar.clear(ctx, SESSION_COOKIE);
}

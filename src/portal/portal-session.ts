// The portal session: which account is signed in to the portal, and the anti-forgery token of its forms
// (a synchronizer token, see src/pages/anti-forgery.ts). It is the portal's own cookie: signing out of
// the portal leaves the user signed in to the service (single sign-on), as with any other application.
// The other way round, it never outlives the service session it was opened in, so that "sign out
// everywhere" and a password reset end it too.
//
// The signed cookie names a record kept on the server (the engine's storage, model `PortalSession`):
// signing out deletes the record, so a copy of the cookie kept from before (a shared computer, a
// stolen cookie) opens nothing afterwards. The record's id is stored hashed, like every engine id. The
// record also keeps when the owner last typed their password in the portal (an action that asks for a
// recent sign-in, fresh-sign-in.ts): on the server, so that a copied cookie carries no such proof.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { ModelAdapter } from '../../adapters/adapter.ts';
import { newFormToken } from '../pages/anti-forgery.ts';
import type { CookieJar } from '../pages/cookies.ts';

/** Where the portal's sessions are recorded: the engine's storage for the model `PortalSession`. */
export type PortalSessionRecords = Pick<ModelAdapter, 'upsert' | 'find' | 'destroy'>;
export const PORTAL_SESSION_MODEL = 'PortalSession';

export const SESSION_COOKIE = 'portal_session';
export const SESSION_SECONDS = 8 * 3600;

export interface PortalSession {
  /** The id of the server-side record. */
  id: string;
  accountId: string;
  /** uid of the service session the portal was signed in through. */
  serviceSessionUid?: string;
  /** Synchronizer token: every form carries it, every POST must send it back. */
  csrf: string;
  expiresAt: number;
  /** When the owner last typed their password in the portal (epoch milliseconds). */
  confirmedAt?: number;
}

/** What the server keeps of a portal session. */
interface SessionRecord {
  accountId: string;
  confirmedAt?: number;
}

interface Stored {
  /** The id of the server-side record. */
  i: string;
  a: string;
  u?: string;
  c: string;
  x: number;
}

export async function startSession(
  ctx: Pick<Koa.Context, 'cookies'>,
  jar: CookieJar,
  records: PortalSessionRecords,
  accountId: string,
  serviceSessionUid?: string,
): Promise<PortalSession> {
  const id = randomBytes(32).toString('base64url');
  const session = { id, accountId, serviceSessionUid, csrf: newFormToken(), expiresAt: Date.now() + SESSION_SECONDS * 1000 };
  await records.upsert(id, { accountId } satisfies SessionRecord, SESSION_SECONDS);
  const stored: Stored = { i: id, a: session.accountId, u: serviceSessionUid, c: session.csrf, x: session.expiresAt };
  jar.write(ctx, SESSION_COOKIE, stored, SESSION_SECONDS);
  return session;
}

/**
 * The session of this request: a signed cookie whose record still exists on the server. The expiry
 * inside the signed value bounds a cookie kept beyond its max-age; the record, a cookie kept beyond a sign-out.
 */
export async function readSession(
  ctx: Pick<Koa.Context, 'cookies'>,
  jar: CookieJar,
  records: PortalSessionRecords,
): Promise<PortalSession | undefined> {
  const stored = jar.read<Stored>(ctx, SESSION_COOKIE);
  if (
    !stored ||
    typeof stored.i !== 'string' ||
    typeof stored.a !== 'string' ||
    typeof stored.c !== 'string' ||
    typeof stored.x !== 'number'
  ) {
    return undefined;
  }
  if (stored.x < Date.now()) return undefined;
  const record = (await records.find(stored.i)) as Partial<SessionRecord> | undefined;
  if (record?.accountId !== stored.a) return undefined;
  return {
    id: stored.i,
    accountId: stored.a,
    serviceSessionUid: typeof stored.u === 'string' ? stored.u : undefined,
    csrf: stored.c,
    expiresAt: stored.x,
    confirmedAt: typeof record.confirmedAt === 'number' ? record.confirmedAt : undefined,
  };
}

/** Records on the server that the owner has just typed their password again; the session's end does not move. */
export async function markPasswordConfirmed(records: PortalSessionRecords, session: PortalSession, now = Date.now()): Promise<void> {
  const secondsLeft = Math.ceil((session.expiresAt - now) / 1000);
  if (secondsLeft <= 0) return;
  await records.upsert(session.id, { accountId: session.accountId, confirmedAt: now } satisfies SessionRecord, secondsLeft);
  session.confirmedAt = now;
}

/** Ends the session on the server (its record is deleted) and in the browser (its cookie is cleared). */
export async function endSession(ctx: Pick<Koa.Context, 'cookies'>, jar: CookieJar, records: PortalSessionRecords): Promise<void> {
  const stored = jar.read<Stored>(ctx, SESSION_COOKIE);
  if (stored && typeof stored.i === 'string') await records.destroy(stored.i);
  jar.clear(ctx, SESSION_COOKIE);
}

// The account page signs in with the engine's own session, so that a user signed in here is signed in
// for applications too, and "sign out everywhere" ends both. This module is the only place outside the
// engine that reads or writes the engine's session cookie: same name, same signing keys (the service
// app's keys are the engine's cookie keys), same flags as the engine sets. The session itself is made
// and found through the engine door.
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { serviceCookiePath } from '../config/issuer-path.ts';
import type { SignInConfig } from '../config/schema.ts';
import { fedcmSignedIn, fedcmSignedOut, type StatusConfig } from '../pages/fedcm-login-status.ts';
import { findSession, sessionCookieName, startSignedInSession, type EngineSession } from './engine.ts';

/** The engine session of this browser when someone is signed in to it. */
export async function currentSession(ctx: Pick<Koa.Context, 'cookies'>, provider: Provider): Promise<EngineSession | undefined> {
  const id = ctx.cookies.get(sessionCookieName(provider), { signed: true });
  if (!id) return undefined;
  const session = await findSession(provider, id);
  return session?.accountId ? session : undefined;
}

/**
 * Signs this browser in as `accountId` with a fresh engine session (a new id: no session fixation).
 * `remember: false` ("Rester connecté" unticked) makes it a browser-session cookie, with no expiry, which
 * the browser forgets when it closes; the engine keeps it so on every later answer (the session is
 * transient, as after an interaction finished with `remember: false`).
 */
export async function startSession(
  ctx: Koa.Context,
  provider: Provider,
  config: SignInConfig,
  accountId: string,
  { remember }: { remember: boolean },
): Promise<void> {
  const previous = await currentSession(ctx, provider);
  if (previous) await previous.destroy();
  const session = await startSignedInSession(provider, accountId, config.ttl.session, { transient: !remember });
  setCookie(ctx, provider, config, session.id, remember ? session.expiresAt : undefined);
  // The browser's account chooser (FedCM) knows this session from its own cookie.
  fedcmSignedIn(ctx, config, session.uid, remember ? session.expiresAt : undefined);
}

export function clearSessionCookie(ctx: Koa.Context, provider: Provider, config: StatusConfig): void {
  setCookie(ctx, provider, config, null);
  fedcmSignedOut(ctx, config);
}

/** Signs this browser out of the service: its engine session ends and its cookie is cleared. */
export async function endCurrentSession(ctx: Koa.Context, provider: Provider, config: StatusConfig): Promise<void> {
  const session = await currentSession(ctx, provider);
  if (session) await session.destroy();
  clearSessionCookie(ctx, provider, config);
}

function setCookie(ctx: Koa.Context, provider: Provider, config: Pick<SignInConfig, 'issuer'>, value: string | null, expires?: Date): void {
  const secure = config.issuer.startsWith('https://');
  if (secure) ctx.cookies.secure = true;
  // Under the service's prefix, as the engine sets it (cookies.long.path in src/provider/configuration.ts).
  const path = serviceCookiePath(config.issuer);
  ctx.cookies.set(sessionCookieName(provider), value, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: true,
    overwrite: true,
    path,
    ...(expires ? { expires } : {}),
  });
}

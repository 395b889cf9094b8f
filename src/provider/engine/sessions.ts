// Engine sessions used beyond the engine's own routes: the account page signs a browser in with one (so
// that it is signed in for applications too), "sign out everywhere" and the portal find them by uid.
//
// Relies on oidc-provider 9.13:
// - lib/models/session.js: a Session built without a payload gets a fresh `uid` (stable for the session's
//   life) and `jti` (its id, rotated by the engine, and what the session cookie carries);
//   `loginAccount({ accountId, loginTs, transient })` (a transient session's cookie is given no expiry by
//   lib/shared/session.js, as after an interaction's `login.remember: false`); `save(ttl)` (ttl required); static `findByUid(uid)`, which
//   our adapters implement for the Session model;
// - lib/models/base_model.js: static `find(id)` (undefined when unknown or expired), `exp` after save;
// - lib/provider.js: `cookieName('session')`, the name the engine reads the session cookie under (signed
//   with the engine's cookie keys, lib/models/session.js `Session.get`).
import type Provider from 'oidc-provider';

export type EngineSession = InstanceType<Provider['Session']>;

/** The cookie the engine reads its session id from. */
export function sessionCookieName(provider: Provider): string {
  return provider.cookieName('session');
}

/** The session with this id (the cookie's value), if it exists and has not expired. */
export async function findSession(provider: Provider, id: string): Promise<EngineSession | undefined> {
  return provider.Session.find<EngineSession>(id);
}

/** The session with this uid, whatever its current id. */
export async function findSessionByUid(provider: Provider, uid: string): Promise<EngineSession | undefined> {
  return provider.Session.findByUid(uid);
}

/** A new session (new id: no fixation) signed in as `accountId`, saved for `ttlSeconds`; transient: its cookie ends with the browser. */
export async function startSignedInSession(
  provider: Provider,
  accountId: string,
  ttlSeconds: number,
  { transient = false }: { transient?: boolean } = {},
): Promise<{ id: string; uid: string; expiresAt: Date }> {
  const session = new provider.Session();
  session.loginAccount({ accountId, loginTs: Math.floor(Date.now() / 1000), transient });
  await session.save(ttlSeconds);
  return { id: session.jti, uid: session.uid, expiresAt: new Date(session.exp * 1000) };
}

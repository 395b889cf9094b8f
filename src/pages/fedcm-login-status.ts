// The browser's view of "signed in here" for FedCM. The browser sends only `SameSite=None; Secure` cookies
// with the account chooser's requests (accounts, ID assertion, disconnect), and the engine's session cookie
// is `Lax`, so FedCM gets a cookie of its own: HttpOnly, Secure, SameSite=None, sent only under the FedCM
// path, signed with the service's cookie keys. It names the engine session (its uid, which stays the same
// while the engine rotates the session id), so that whatever ends the session (signing out here or
// everywhere, a password change, the account's deletion) ends it for FedCM too, even in a browser whose
// cookie was not cleared. The Login Status API's header (`Set-Login`) tells the browser when to show its
// chooser at all: sent at every sign-in and sign-out.
import type Koa from 'koa';
import { issuerPath } from '../config/issuer-path.ts';
import { fedcmOn } from '../config/fedcm-schema.ts';
import type { SignInConfig } from '../config/schema.ts';

export const FEDCM_COOKIE = 'signin.fedcm';
/** The FedCM endpoints, under the issuer's path: the only place the cookie is sent to. */
export const FEDCM_PATH = '/fedcm';

/** The `fedcm` section is read when given (a face handed only part of the config has FedCM as it defaults). */
export type StatusConfig = Pick<SignInConfig, 'issuer'> & Partial<Pick<SignInConfig, 'fedcm'>>;
type CookieContext = Pick<Koa.Context, 'cookies' | 'set'>;

export const fedcmCookiePath = (issuer: string): string => `${issuerPath(issuer)}${FEDCM_PATH}`;

/** A sign-in over https: the FedCM cookie names the session, and the browser hears "logged in". */
export function fedcmSignedIn(ctx: CookieContext, config: StatusConfig, sessionUid: string, expires?: Date): void {
  if (!fedcmOn(config)) return;
  writeCookie(ctx, config, sessionUid, expires);
  ctx.set('Set-Login', 'logged-in');
}

/** A sign-out (here, everywhere, by a password change or the account's deletion): the cookie is cleared. */
export function fedcmSignedOut(ctx: CookieContext, config: StatusConfig): void {
  if (!fedcmOn(config)) return;
  writeCookie(ctx, config, null);
  ctx.set('Set-Login', 'logged-out');
}

/** The session uid the FedCM cookie names, if the cookie is there and its signature holds. */
export function fedcmSessionUid(ctx: Pick<Koa.Context, 'cookies'>): string | undefined {
  return ctx.cookies.get(FEDCM_COOKIE, { signed: true }) || undefined;
}

function writeCookie(ctx: CookieContext, config: StatusConfig, value: string | null, expires?: Date): void {
  // Always Secure (FedCM is https only): the cookies library needs telling when TLS ends at a proxy.
  ctx.cookies.secure = true;
  ctx.cookies.set(FEDCM_COOKIE, value, {
    httpOnly: true,
    secure: true,
    sameSite: 'none',
    signed: true,
    overwrite: true,
    path: fedcmCookiePath(config.issuer),
    ...(expires && value !== null ? { expires } : {}),
  });
}

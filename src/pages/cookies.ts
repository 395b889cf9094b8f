// Cookies of our own pages (language, anti-forgery, notices, the portal's session): HttpOnly,
// SameSite=Lax, Secure whenever the service is served over https, even behind a proxy that is not
// trusted to say so, and only under the path the issuer carries (a host app's routes never get them).
import type Koa from 'koa';
import { serviceCookiePath } from '../config/issuer-path.ts';

type CookieContext = Pick<Koa.Context, 'cookies'>;

export interface CookieOptions {
  issuer: string;
  maxAgeSeconds?: number;
  signed?: boolean;
  /** Where the browser sends it back, mount prefix included; the whole service by default. */
  path?: string;
}

export function setPageCookie(ctx: CookieContext, name: string, value: string | null, options: CookieOptions): void {
  const secure = options.issuer.startsWith('https://');
  // The cookies library refuses a Secure cookie on a request it believes is plain http (TLS ended at a
  // proxy); the issuer says the browser talks https, which is what the flag is about.
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: options.signed ?? false,
    overwrite: true,
    path: options.path ?? serviceCookiePath(options.issuer),
    ...(options.maxAgeSeconds && value !== null ? { maxAge: options.maxAgeSeconds * 1000 } : {}),
  });
}

/** Cookies holding a small value as base64url JSON, signed with the service's cookie keys. */
export interface CookieJar {
  read<T>(ctx: CookieContext, name: string): T | undefined;
  write(ctx: CookieContext, name: string, value: unknown, maxAgeSeconds: number): void;
  clear(ctx: CookieContext, name: string): void;
}

export function cookieJar(options: { issuer: string; path?: string }): CookieJar {
  const base = { issuer: options.issuer, path: options.path, signed: true };
  return {
    read<T>(ctx: CookieContext, name: string): T | undefined {
      const raw = ctx.cookies.get(name, { signed: true });
      if (!raw) return undefined;
      try {
        return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as T;
      } catch {
        return undefined;
      }
    },
    write(ctx, name, value, maxAgeSeconds) {
      setPageCookie(ctx, name, Buffer.from(JSON.stringify(value)).toString('base64url'), { ...base, maxAgeSeconds });
    },
    clear(ctx, name) {
      setPageCookie(ctx, name, null, base);
    },
  };
}

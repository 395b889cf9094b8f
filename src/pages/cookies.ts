// Cookies of our own pages (language, anti-forgery): HttpOnly, SameSite=Lax, and Secure whenever the
// service is served over https, even behind a proxy that is not trusted to say so.
import type Koa from 'koa';

export interface CookieOptions {
  issuer: string;
  maxAgeSeconds?: number;
  signed?: boolean;
}

export function setPageCookie(ctx: Pick<Koa.Context, 'cookies'>, name: string, value: string | null, options: CookieOptions): void {
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
    path: '/',
    ...(options.maxAgeSeconds && value !== null ? { maxAge: options.maxAgeSeconds * 1000 } : {}),
  });
}

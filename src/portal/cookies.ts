// The portal's cookies, all scoped to the portal path, HttpOnly, SameSite=Lax, Secure behind an https
// issuer. Values are base64url JSON signed with the service's cookie keys (Koa's `signed: true`).
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';

type CookieContext = Pick<Koa.Context, 'cookies'>;

export interface CookieJar {
  read<T>(ctx: CookieContext, name: string): T | undefined;
  write(ctx: CookieContext, name: string, value: unknown, maxAgeSeconds: number): void;
  clear(ctx: CookieContext, name: string): void;
}

export function cookieJar(config: Pick<SignInConfig, 'issuer' | 'portal'>): CookieJar {
  const base = {
    path: config.portal.path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.issuer.startsWith('https://'),
    signed: true,
    overwrite: true,
  };
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
      ctx.cookies.set(name, Buffer.from(JSON.stringify(value)).toString('base64url'), { ...base, maxAge: maxAgeSeconds * 1000 });
    },
    clear(ctx, name) {
      ctx.cookies.set(name, '', { ...base, maxAge: 0 });
    },
  };
}

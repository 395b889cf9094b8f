// A one-time message for the next page: after a POST the portal redirects (so that a reload never
// resubmits) and the page it redirects to shows what happened, once. A new client secret travels
// this way: never in a URL, and encrypted (AES-256-GCM) rather than only signed, because a cookie
// may sit in the browser's profile on disk for the few seconds until the page reads and clears it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import type { CookieJar } from '../pages/cookies.ts';
import type { PortalKey } from './portal-messages.ts';

export const FLASH_COOKIE = 'portal_flash';
const FLASH_SECONDS = 300;

export interface Flash {
  /** The account it was written for: another account signing in on the same browser never sees it. */
  accountId: string;
  notice: PortalKey;
  noticeVars?: Record<string, string>;
  /** Set after creation and rotation: the only time a client secret is ever shown. */
  credentials?: { clientId: string; clientSecret: string };
}

type CookieContext = Pick<Koa.Context, 'cookies'>;

export interface FlashStore {
  set(ctx: CookieContext, flash: Flash): void;
  /** Reads and clears: whatever the page does next, a reload shows nothing. */
  take(ctx: CookieContext, accountId: string): Flash | undefined;
}

export function flashStore(config: Pick<SignInConfig, 'secrets'>, jar: CookieJar): FlashStore {
  const keys = config.secrets.cookieKeys.map((secret) => Buffer.from(hkdfSync('sha256', secret, '', 'signin portal flash', 32)));
  return {
    set(ctx, flash) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keys[0], iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(flash), 'utf8'), cipher.final()]);
      jar.write(ctx, FLASH_COOKIE, Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'), FLASH_SECONDS);
    },
    take(ctx, accountId) {
      const sealed = jar.read<string>(ctx, FLASH_COOKIE);
      if (sealed === undefined) return undefined;
      jar.clear(ctx, FLASH_COOKIE);
      const flash = typeof sealed === 'string' ? open(keys, Buffer.from(sealed, 'base64url')) : undefined;
      return flash?.accountId === accountId ? flash : undefined;
    },
  };
}

function open(keys: Buffer[], sealed: Buffer): Flash | undefined {
  if (sealed.length < 29) return undefined;
  for (const key of keys) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      const json = Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
      return JSON.parse(json) as Flash;
    } catch {
      // another key (rotation), or a cookie that was not ours
    }
  }
  return undefined;
}

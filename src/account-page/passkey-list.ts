// The account page's list of passkeys (name, created, last used, synced or on one device), and what the
// page's script tells the browser through the WebAuthn Signal API: the passkey just removed, and every one
// the account still has, so that the phone stops offering a passkey that can no longer sign in.
import type Koa from 'koa';
import type { Locale, Translate } from '../i18n/index.ts';
import { cookieJar } from '../pages/cookies.ts';
import { userHandleOf } from '../passkeys/ceremony.ts';
import type { Passkey } from '../passkeys/store.ts';
import type { AccountPageDeps } from './account-deps.ts';

/** What the page shows of one passkey. */
export interface PasskeyEntry {
  id: string;
  name: string;
  created: string;
  lastUsed: string;
  synced: boolean;
}

/** The account's passkeys for the page, and what the page's script tells the browser (Signal API). */
export async function passkeysView(
  ctx: Koa.Context,
  deps: Pick<AccountPageDeps, 'passkeys' | 'config'>,
  accountId: string,
  locale: Locale,
  t: Translate,
): Promise<{ list: PasskeyEntry[]; signal: { rpId: string; userId: string; unknown: string[]; accepted: string[] } } | null> {
  if (!deps.passkeys.enabled) return null;
  const day = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' });
  const passkeys = await deps.passkeys.passkeys.list(accountId);
  const removed = takeRemoved(ctx, deps, accountId);
  return {
    list: passkeys.map((p: Passkey) => ({
      id: p.id,
      name: p.name,
      created: t('account.passkeys.created', { date: day.format(p.createdAt) }),
      lastUsed: p.lastUsedAt ? t('account.passkeys.lastUsed', { date: day.format(p.lastUsedAt) }) : t('account.passkeys.neverUsed'),
      synced: p.deviceType === 'multiDevice',
    })),
    signal: { rpId: deps.passkeys.rp.id, userId: userHandleOf(accountId), unknown: removed, accepted: passkeys.map((p) => p.id) },
  };
}

// Which passkey was just removed travels to the next page in a short-lived signed cookie bound to the
// account, for the Signal API: a link naming any credential id must not make the page signal it.
const REMOVED_COOKIE = 'passkey_removed';
const REMOVED_SECONDS = 60;

/** Remembers, for the page after the redirect, that `accountId` has just removed passkey `id`. */
export function rememberRemoved(ctx: Koa.Context, deps: Pick<AccountPageDeps, 'config'>, accountId: string, id: string): void {
  cookieJar({ issuer: deps.config.issuer }).write(ctx, REMOVED_COOKIE, { accountId, id }, REMOVED_SECONDS);
}

function takeRemoved(ctx: Koa.Context, deps: Pick<AccountPageDeps, 'config'>, accountId: string): string[] {
  if (ctx.cookies.get(REMOVED_COOKIE, { signed: true }) === undefined) return [];
  const jar = cookieJar({ issuer: deps.config.issuer });
  const flash = jar.read<{ accountId?: unknown; id?: unknown }>(ctx, REMOVED_COOKIE);
  jar.clear(ctx, REMOVED_COOKIE);
  return flash?.accountId === accountId && typeof flash.id === 'string' ? [flash.id] : [];
}

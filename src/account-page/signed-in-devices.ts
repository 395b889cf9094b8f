// The account's signed-in devices as the account page lists them: each in plain words ("Chrome sur
// Android"), when it was last used, and which one is this browser. No place: the service keeps no IP
// address for a session, and a place guessed from an address's network would more often mislead
// (a mobile operator's gateway, a company's proxy) than help.
import { describeDevice } from '../accounts/device-name.ts';
import type { AccountSessions } from '../accounts/sessions.ts';
import type { Locale, Translate } from '../i18n/index.ts';

export interface DeviceView {
  /** The session's uid: what its "Déconnecter cet appareil" form posts. */
  id: string;
  name: string;
  /** "il y a 3 minutes", "hier", "12 mars 2025". */
  lastUsed: string;
  current: boolean;
}

const DATE_LOCALE: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };

/** How long ago `then` was, as a person says it: now, minutes, hours, days within a week, else the date. */
export function sinceWhen(then: Date, now: Date, locale: Locale): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  const relative = new Intl.RelativeTimeFormat(DATE_LOCALE[locale], { numeric: 'auto' });
  if (seconds < 60) return relative.format(0, 'second');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
  if (seconds < 7 * 86_400) return relative.format(-Math.floor(seconds / 86_400), 'day');
  return new Intl.DateTimeFormat(DATE_LOCALE[locale], { dateStyle: 'long' }).format(then);
}

export async function signedInDevices(
  sessions: Pick<AccountSessions, 'list'>,
  accountId: string,
  currentUid: string | undefined,
  locale: Locale,
  t: Translate,
): Promise<DeviceView[]> {
  const now = new Date();
  const views = (await sessions.list(accountId)).map((entry) => ({
    id: entry.uid,
    name: describeDevice(entry.device, t),
    lastUsed: sinceWhen(entry.lastUsedAt, now, locale),
    current: entry.uid === currentUid,
  }));
  // This browser first, then the others as used last.
  return [...views.filter((v) => v.current), ...views.filter((v) => !v.current)];
}

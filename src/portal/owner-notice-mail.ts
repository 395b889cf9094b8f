// The e-mail to an application's owner after a change made in the portal that they would want to hear
// about even if it was them: the client secret was replaced, the application was deleted. It names the
// application and the time, and says what to do if it was not them. Same layout as the account's notices
// (views/mail/notice.ejs); no token anywhere: its links open ordinary pages that do nothing by themselves.
import { t as translate, type Locale } from '../i18n/index.ts';
import type { MailBrand } from '../mail/compose-mail.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import { composeNotice } from '../mail/notice-mail.ts';
import { portalTranslator, type PortalKey } from './portal-messages.ts';

export type OwnerNoticeKind = 'rotated' | 'rotatedOverlap' | 'deleted';

const COPY: Readonly<Record<OwnerNoticeKind, { subject: PortalKey; intro: PortalKey; ignore: PortalKey }>> = {
  rotated: { subject: 'mail.rotated.subject', intro: 'mail.rotated.intro', ignore: 'mail.rotated.ignore' },
  // The old secret still works for the overlap the owner chose (src/clients/secret-overlap.ts).
  rotatedOverlap: { subject: 'mail.rotated.subject', intro: 'mail.rotatedOverlap.intro', ignore: 'mail.rotated.ignore' },
  deleted: { subject: 'mail.deleted.subject', intro: 'mail.deleted.intro', ignore: 'mail.deleted.ignore' },
};

export interface OwnerNotice {
  kind: OwnerNoticeKind;
  app: { name: string; clientId: string };
  at: Date;
  /** When the replaced secret stops working, for `rotatedOverlap`. */
  until?: Date;
  /** The portal's list of applications and the page to choose a new password. */
  links: { apps: string; reset: string };
}

/** The time as the reader's language writes it, in UTC (the service knows no reader's time zone). */
export function noticeTime(at: Date, locale: Locale): string {
  const format = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return `${format.format(at)} UTC`;
}

export async function composeOwnerNotice(
  notice: OwnerNotice,
  locale: Locale,
  to: { email: string; firstName: string },
  brand: MailBrand,
): Promise<OutgoingMail> {
  const t = portalTranslator(locale);
  const copy = COPY[notice.kind];
  const vars = {
    name: notice.app.name,
    clientId: notice.app.clientId,
    time: noticeTime(notice.at, locale),
    ...(notice.until ? { until: noticeTime(notice.until, locale) } : {}),
  };
  const lines = {
    greeting: translate(locale, 'mail.greeting', { firstName: to.firstName }),
    intro: t(copy.intro, vars),
    ignore: t(copy.ignore),
  };
  const actions = [
    { label: t('mail.action.apps'), link: notice.links.apps },
    { label: t('mail.action.reset'), link: notice.links.reset },
  ];
  return composeNotice({ locale, to: to.email, subject: t(copy.subject, vars), lines, actions, brand });
}

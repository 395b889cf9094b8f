// The notice sent to the account's e-mail address at once when a phone number is added: from then on the
// number will sign in alone, after its cooling-off period (src/phone/cooling-off.ts). If a SIM-swap ring
// added it, the owner learns of it while the number cannot yet be used, and can remove it with the
// password. Like every notice, it carries no token: its links open nothing by themselves.
import { translator, type Locale } from '../i18n/index.ts';
import type { MailBrand } from './compose-mail.ts';
import type { OutgoingMail } from './mailer.ts';
import { composeNotice } from './notice-mail.ts';

export function composePhoneAddedNotice(
  locale: Locale,
  to: { email: string; firstName: string },
  number: string,
  usableFrom: Date,
  links: { account: string; reset: string },
  brand: MailBrand,
): Promise<OutgoingMail> {
  const t = translator(locale);
  const when = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return composeNotice({
    locale,
    to: to.email,
    subject: t('mail.phoneAdded.subject'),
    lines: {
      greeting: t('mail.greeting', { firstName: to.firstName }),
      intro: t('mail.phoneAdded.intro', { number, date: when.format(usableFrom) }),
      ignore: t('mail.phoneAdded.ignore'),
    },
    actions: [
      { label: t('account.phone.link'), link: links.account },
      { label: t('mail.notice.reset'), link: links.reset },
    ],
    brand,
  });
}

// The e-mails the service sends, in the reader's language, with a text part and an HTML part that say
// the same thing. Both come from the catalogs; the HTML is an ejs template that escapes every value.
// Each is signed with the deployment's name and ends with its links (config `branding`).
import { fileURLToPath } from 'node:url';
import ejs from 'ejs';
import { t as translate, translator, type Locale, type MessageKey } from '../i18n/index.ts';
import { brandView, type Brand } from '../pages/branding.ts';
import type { OutgoingMail } from './mailer.ts';

/** The branding as a message shows it: the name, the logo's absolute URL, the links. */
export interface MailBrand {
  name: string;
  logoUrl: string | null;
  links: Array<{ label: string; url: string }>;
}

export function mailBrand(brand: Brand | undefined, locale: Locale, issuer: string): MailBrand {
  const view = brandView(brand, locale, translate(locale, 'service.name'));
  return { name: view.name, logoUrl: view.logoHref && issuer + view.logoHref, links: view.links };
}

/** The links as the text part ends with them: one line each. */
export const brandLines = (brand: MailBrand): string[] => brand.links.map((link) => `${link.label}: ${link.url}`);

export type MailKind = 'verify' | 'reset' | 'changeEmail';

const COPY: Readonly<Record<MailKind, { subject: MessageKey; intro: MessageKey; action: MessageKey; expiry: MessageKey }>> = {
  verify: { subject: 'mail.verify.subject', intro: 'mail.verify.intro', action: 'mail.verify.action', expiry: 'mail.verify.expiry' },
  reset: { subject: 'mail.reset.subject', intro: 'mail.reset.intro', action: 'mail.reset.action', expiry: 'mail.reset.expiry' },
  changeEmail: {
    subject: 'mail.changeEmail.subject',
    intro: 'mail.changeEmail.intro',
    action: 'mail.changeEmail.action',
    expiry: 'mail.changeEmail.expiry',
  },
};

const TEMPLATE = fileURLToPath(new URL('../../views/mail/message.ejs', import.meta.url));

export async function composeMail(
  kind: MailKind,
  locale: Locale,
  to: { email: string; firstName: string },
  link: string,
  ttlSeconds: number,
  brand: MailBrand = mailBrand(undefined, locale, ''),
): Promise<OutgoingMail> {
  const t = translator(locale);
  const copy = COPY[kind];
  const hours = Math.max(1, Math.round(ttlSeconds / 3600));
  const lines = {
    greeting: t('mail.greeting', { firstName: to.firstName }),
    intro: t(copy.intro),
    action: t(copy.action),
    expiry: t(copy.expiry, { hours }),
    ignore: t('mail.ignore'),
    signature: brand.name,
  };
  const subject = t(copy.subject);
  const text = [
    lines.greeting,
    '',
    lines.intro,
    '',
    link,
    '',
    lines.expiry,
    lines.ignore,
    '',
    `— ${lines.signature}`,
    ...brandLines(brand),
  ].join('\n');
  const html = await ejs.renderFile(TEMPLATE, { lang: locale, subject, link, brand, ...lines });
  return { to: to.email, subject, text, html, link };
}

// The one layout of every notice (views/mail/notice.ejs): a greeting, what happened, the actions as
// plain links, what to do if it was not the reader, the signature. The text part says the same as the
// HTML part, in the template's order. Notices carry no token: their links do nothing by themselves.
import { fileURLToPath } from 'node:url';
import ejs from 'ejs';
import type { Locale } from '../i18n/index.ts';
import { brandLines, type MailBrand } from './compose-mail.ts';
import type { OutgoingMail } from './mailer.ts';

const TEMPLATE = fileURLToPath(new URL('../../views/mail/notice.ejs', import.meta.url));

export interface Notice {
  locale: Locale;
  to: string;
  subject: string;
  /** Already in the reader's language. */
  lines: { greeting: string; intro: string; ignore: string };
  actions: Array<{ label: string; link: string }>;
  brand: MailBrand;
  /** The link the development outbox prints (by default the first action's). */
  link?: string;
}

export async function composeNotice({ locale, to, subject, lines, actions, brand, link }: Notice): Promise<OutgoingMail> {
  const signature = brand.name;
  const text = [
    lines.greeting,
    '',
    lines.intro,
    '',
    ...actions.flatMap((action) => [action.label, action.link, '']),
    lines.ignore,
    '',
    `— ${signature}`,
    ...brandLines(brand),
  ].join('\n');
  const html = await ejs.renderFile(TEMPLATE, { lang: locale, subject, actions, brand, signature, ...lines });
  return { to, subject, text, html, link: link ?? actions[0]?.link ?? '' };
}

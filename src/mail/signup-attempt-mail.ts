// The e-mail to the owner of an address someone tried to sign up with. The sign-up page answers the
// same whether or not the address is registered (interactions/signup.ts); the owner is told here, with
// a link to sign in and one to choose a new password. No token: neither link does anything by itself.
import { fileURLToPath } from 'node:url';
import ejs from 'ejs';
import { translator, type Locale } from '../i18n/index.ts';
import { brandLines, mailBrand, type MailBrand } from './compose-mail.ts';
import type { OutgoingMail } from './mailer.ts';

const TEMPLATE = fileURLToPath(new URL('../../views/mail/notice.ejs', import.meta.url));

export async function composeSignupAttempt(
  locale: Locale,
  to: { email: string; firstName: string },
  links: { signIn: string; reset: string },
  brand: MailBrand = mailBrand(undefined, locale, ''),
): Promise<OutgoingMail> {
  const t = translator(locale);
  const subject = t('mail.signupAttempt.subject');
  const lines = {
    greeting: t('mail.greeting', { firstName: to.firstName }),
    intro: t('mail.signupAttempt.intro'),
    ignore: t('mail.signupAttempt.ignore'),
    signature: brand.name,
  };
  const actions = [
    { label: t('mail.signupAttempt.signIn'), link: links.signIn },
    { label: t('mail.signupAttempt.reset'), link: links.reset },
  ];
  const text = [
    lines.greeting,
    '',
    lines.intro,
    '',
    ...actions.flatMap((action) => [action.label, action.link, '']),
    lines.ignore,
    '',
    `— ${lines.signature}`,
    ...brandLines(brand),
  ].join('\n');
  const html = await ejs.renderFile(TEMPLATE, { lang: locale, subject, actions, brand, ...lines });
  // The outbox prints the message's one link: the sign-in one.
  return { to: to.email, subject, text, html, link: links.signIn };
}

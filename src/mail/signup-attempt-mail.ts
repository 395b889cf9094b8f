// The e-mail to the owner of an address someone tried to sign up with. The sign-up page answers the
// same whether or not the address is registered (interactions/signup.ts); the owner is told here, with
// a link to sign in and one to choose a new password. No token: neither link does anything by itself.
import { translator, type Locale } from '../i18n/index.ts';
import { mailBrand, type MailBrand } from './compose-mail.ts';
import type { OutgoingMail } from './mailer.ts';
import { composeNotice } from './notice-mail.ts';

export async function composeSignupAttempt(
  locale: Locale,
  to: { email: string; firstName: string },
  links: { signIn: string; reset: string },
  brand: MailBrand = mailBrand(undefined, locale, ''),
): Promise<OutgoingMail> {
  const t = translator(locale);
  const lines = {
    greeting: t('mail.greeting', { firstName: to.firstName }),
    intro: t('mail.signupAttempt.intro'),
    ignore: t('mail.signupAttempt.ignore'),
  };
  const actions = [
    { label: t('mail.signupAttempt.signIn'), link: links.signIn },
    { label: t('mail.signupAttempt.reset'), link: links.reset },
  ];
  return composeNotice({ locale, to: to.email, subject: t('mail.signupAttempt.subject'), lines, actions, brand });
}

// Notices about the account itself, sent after the fact: the password was changed, the address was
// changed (to the old address), the account was deleted (to the former address), a device the account
// had never used signed in (when the deployment turns that notice on: notices.newDeviceSignIn). None carries a token:
// their links (sign in, choose a new password) do nothing by themselves, so a notice forwarded, leaked or
// read by the wrong person opens nothing.
import { translator, type Locale, type MessageKey, type MessageVars } from '../i18n/index.ts';
import { mailBrand, type MailBrand } from './compose-mail.ts';
import type { OutgoingMail } from './mailer.ts';
import { composeNotice } from './notice-mail.ts';

export type AccountNoticeKind =
  'passwordChanged' | 'emailChanged' | 'accountDeleted' | 'newDeviceSignIn' | 'passkeyAdded' | 'passkeyRemoved';

const COPY: Readonly<Record<AccountNoticeKind, { subject: MessageKey; intro: MessageKey; ignore: MessageKey }>> = {
  passwordChanged: { subject: 'mail.passwordChanged.subject', intro: 'mail.passwordChanged.intro', ignore: 'mail.passwordChanged.ignore' },
  emailChanged: { subject: 'mail.emailChanged.subject', intro: 'mail.emailChanged.intro', ignore: 'mail.emailChanged.ignore' },
  accountDeleted: { subject: 'mail.accountDeleted.subject', intro: 'mail.accountDeleted.intro', ignore: 'mail.accountDeleted.ignore' },
  newDeviceSignIn: { subject: 'mail.newDevice.subject', intro: 'mail.newDevice.intro', ignore: 'mail.newDevice.ignore' },
  passkeyAdded: { subject: 'mail.passkeyAdded.subject', intro: 'mail.passkeyAdded.intro', ignore: 'mail.passkeyAdded.ignore' },
  passkeyRemoved: { subject: 'mail.passkeyRemoved.subject', intro: 'mail.passkeyRemoved.intro', ignore: 'mail.passkeyRemoved.ignore' },
};

export interface NoticeAction {
  label: MessageKey;
  link: string;
}

export async function composeAccountNotice(
  kind: AccountNoticeKind,
  locale: Locale,
  to: { email: string; firstName: string },
  actions: NoticeAction[],
  brand: MailBrand = mailBrand(undefined, locale, ''),
  vars: MessageVars = {},
): Promise<OutgoingMail> {
  const t = translator(locale);
  const copy = COPY[kind];
  const lines = {
    greeting: t('mail.greeting', { firstName: to.firstName }),
    intro: t(copy.intro, vars),
    ignore: t(copy.ignore),
  };
  const shown = actions.map((action) => ({ label: t(action.label), link: action.link }));
  return composeNotice({ locale, to: to.email, subject: t(copy.subject), lines, actions: shown, brand });
}

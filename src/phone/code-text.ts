// The text of a code message, in the reader's language. Its last line is the WebOTP line
// (`@host #123456`, WICG sms-one-time-codes): Android's browser then offers to fill in the code on the page
// of that host, and on no other page, so a phishing page cannot be served the code by the phone.
import { translator, type Locale } from '../i18n/index.ts';
import { CODE_SECONDS } from './code-store.ts';

export function codeText(code: string, locale: Locale, issuer: string, serviceName?: string): string {
  const t = translator(locale);
  const service = serviceName ?? t('service.name');
  const host = new URL(issuer).hostname;
  return `${t('phone.sms.text', { code, service, minutes: CODE_SECONDS / 60 })}\n\n@${host} #${code}`;
}

// Typed message catalogs and language negotiation for every user-visible string.
import { en } from './en.ts';
import { fr } from './fr.ts';
import type { Locale } from './locales.ts';
import type { MessageKey, Messages, MessageVars } from './messages.ts';

export { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from './locales.ts';
export type { MessageKey, Messages, MessageVars } from './messages.ts';
export { negotiateLocale, parseAcceptLanguage, type LocaleSources } from './negotiate.ts';

const CATALOGS: Readonly<Record<Locale, Messages>> = { fr, en };

export function messagesFor(locale: Locale): Messages {
  return CATALOGS[locale];
}

/** The message in this language, with each `{name}` replaced by `vars.name` (unknown names stay as written). */
export function t(locale: Locale, key: MessageKey, vars?: MessageVars): string {
  return formatMessage(CATALOGS[locale][key], vars);
}

/** Fills the `{name}` placeholders of a message of any catalog (the portal has its own). */
export function formatMessage(message: string, vars?: MessageVars): string {
  if (!vars) return message;
  return message.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : placeholder,
  );
}

/** `t` bound to one language, as handed to the templates. */
export type Translate = (key: MessageKey, vars?: MessageVars) => string;

export function translator(locale: Locale): Translate {
  return (key, vars) => t(locale, key, vars);
}

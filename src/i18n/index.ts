// Typed message catalogs and language negotiation for every user-visible string.
import { en } from './en.ts';
import { fr } from './fr.ts';
import { DEFAULT_LOCALE, type Locale } from './locales.ts';
import type { MessageKey, Messages, MessageVars } from './messages.ts';
import { fillPlurals } from './plural.ts';

export { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from './locales.ts';
export type { MessageKey, Messages, MessageVars } from './messages.ts';
export { negotiateLocale, parseAcceptLanguage, type LocaleSources } from './negotiate.ts';
export { pluralBlocks, PLURAL_CATEGORIES } from './plural.ts';

const CATALOGS: Readonly<Record<Locale, Messages>> = { fr, en };

export function messagesFor(locale: Locale): Messages {
  return CATALOGS[locale];
}

/**
 * The message in this language, with each `{name}` replaced by `vars.name` (unknown names stay as
 * written) and each plural block `{count, plural, one {…} other {…}}` by the form of that number.
 */
export function t(locale: Locale, key: MessageKey, vars?: MessageVars): string {
  return formatMessage(CATALOGS[locale][key], vars, locale);
}

/**
 * Fills the placeholders of a message of any catalog (the portal has its own). `locale` picks the
 * plural forms (src/i18n/plural.ts); it is the default language's when not given.
 */
export function formatMessage(message: string, vars?: MessageVars, locale: Locale = DEFAULT_LOCALE): string {
  if (!vars) return message;
  return fillPlurals(message, vars, locale).replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : placeholder,
  );
}

/** `t` bound to one language, as handed to the templates. */
export type Translate = (key: MessageKey, vars?: MessageVars) => string;

export function translator(locale: Locale): Translate {
  return (key, vars) => t(locale, key, vars);
}

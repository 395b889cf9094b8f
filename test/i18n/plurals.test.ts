// Messages that count say "1 minute" and "2 minutes" in each language by its own rules (CLDR, through
// Intl.PluralRules): in French 0 and 1 take the singular, in English only 1 does.
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.ts';
import { fr } from '../../src/i18n/fr.ts';
import {
  formatMessage,
  LOCALES,
  messagesFor,
  PLURAL_CATEGORIES,
  pluralBlocks,
  t,
  type Locale,
  type MessageKey,
} from '../../src/i18n/index.ts';
import { portalEn } from '../../src/i18n/portal-en.ts';
import { portalFr } from '../../src/i18n/portal-fr.ts';

const CATALOGS: Record<string, Readonly<Record<string, string>>> = { fr, en, 'portal-fr': portalFr, 'portal-en': portalEn };
/** Placeholder names that hold a count: a message writing one of them bare would say "1 minutes". */
const COUNTED_NAMES = ['count', 'n', 'minutes', 'hours', 'days', 'seconds', 'attempts', 'sessions', 'applications'];

const counted = (locale: Locale) =>
  (Object.keys(messagesFor(locale)) as MessageKey[]).filter((key) => pluralBlocks(messagesFor(locale)[key]).length);

/** The message with every count set to `n` and every other placeholder to "X". */
function render(locale: Locale, key: MessageKey, n: number): string {
  const message = messagesFor(locale)[key];
  const vars: Record<string, string | number> = {};
  for (const [, name] of message.matchAll(/\{(\w+)\}/g)) vars[name] = 'X';
  for (const block of pluralBlocks(message)) vars[block.name] = n;
  return t(locale, key, vars);
}
/** The rendering with the number itself blanked out, to compare the words around it. */
const words = (locale: Locale, key: MessageKey, n: number) => render(locale, key, n).replaceAll(String(n), 'N');

describe('counted messages', () => {
  it('exist (the minutes of a lock-out, the hours a link is valid)', () => {
    expect(counted('fr')).toEqual(expect.arrayContaining(['login.error.tooMany', 'mail.verify.expiry', 'mail.reset.expiry']));
    expect(counted('en').sort()).toEqual(counted('fr').sort());
  });

  it('render 0, 1, 2 and 5 in French and English', () => {
    expect(t('fr', 'login.error.tooMany', { minutes: 0 })).toBe('Trop de tentatives de connexion. Réessayez dans 0\u00a0minute.');
    expect(t('fr', 'login.error.tooMany', { minutes: 1 })).toBe('Trop de tentatives de connexion. Réessayez dans 1\u00a0minute.');
    expect(t('fr', 'login.error.tooMany', { minutes: 2 })).toBe('Trop de tentatives de connexion. Réessayez dans 2\u00a0minutes.');
    expect(t('fr', 'login.error.tooMany', { minutes: 5 })).toBe('Trop de tentatives de connexion. Réessayez dans 5\u00a0minutes.');
    expect(t('en', 'login.error.tooMany', { minutes: 0 })).toBe('Too many sign-in attempts. Try again in 0 minutes.');
    expect(t('en', 'login.error.tooMany', { minutes: 1 })).toBe('Too many sign-in attempts. Try again in 1 minute.');
    expect(t('en', 'login.error.tooMany', { minutes: 2 })).toBe('Too many sign-in attempts. Try again in 2 minutes.');
    expect(t('en', 'login.error.tooMany', { minutes: 5 })).toBe('Too many sign-in attempts. Try again in 5 minutes.');
    expect(t('fr', 'mail.verify.expiry', { hours: 1 })).toBe('Ce lien est valable 1\u00a0heure et ne sert qu’une fois.');
    expect(t('fr', 'mail.reset.expiry', { hours: 24 })).toBe('Ce lien est valable 24\u00a0heures et ne sert qu’une fois.');
    expect(t('en', 'mail.verify.expiry', { hours: 1 })).toBe('This link is valid for 1 hour and works only once.');
    expect(t('en', 'mail.reset.expiry', { hours: 2 })).toBe('This link is valid for 2 hours and works only once.');
  });

  it('take the singular for 0 and 1 in French, for 1 only in English, and the plural from 2 on', () => {
    for (const key of counted('fr')) {
      expect(words('fr', key, 0), key).toBe(words('fr', key, 1));
      expect(words('fr', key, 1), key).not.toBe(words('fr', key, 2));
      expect(words('fr', key, 2), key).toBe(words('fr', key, 5));
    }
    for (const key of counted('en')) {
      expect(words('en', key, 0), key).toBe(words('en', key, 2));
      expect(words('en', key, 1), key).not.toBe(words('en', key, 2));
      expect(words('en', key, 2), key).toBe(words('en', key, 5));
    }
    for (const locale of LOCALES) {
      for (const key of counted(locale)) {
        for (const n of [0, 1, 2, 5]) {
          const text = render(locale, key, n);
          expect(text, `${locale} ${key} ${n}`).toContain(String(n));
          expect(text, `${locale} ${key} ${n}`).not.toMatch(/[{}#]/);
        }
      }
    }
  });

  it('pick the form with the rules of the language given, and an exact =n form before the category', () => {
    const message = '{n, plural, =0 {aucune application} one {# application} other {# applications}}';
    expect(formatMessage(message, { n: 0 }, 'en')).toBe('aucune application');
    expect(formatMessage('{n, plural, one {# application} other {# applications}}', { n: 0 }, 'fr')).toBe('0 application');
    expect(formatMessage('{n, plural, one {# application} other {# applications}}', { n: 0 }, 'en')).toBe('0 applications');
    expect(formatMessage('{n, plural, one {# app for {name}} other {# apps for {name}}}', { n: 1, name: 'Léa' }, 'en')).toBe(
      '1 app for Léa',
    );
    // A count that is not a number leaves the block as written rather than guessing a form.
    expect(formatMessage('{n, plural, one {#} other {#}}', { n: 'beaucoup' }, 'fr')).toBe('{n, plural, one {#} other {#}}');
  });
});

describe('plural blocks in the catalogs', () => {
  for (const [name, catalog] of Object.entries(CATALOGS)) {
    it(`${name}: every block parses and has at least \`one\` and \`other\`, keyed by CLDR categories or =n`, () => {
      for (const [key, message] of Object.entries(catalog)) {
        const blocks = pluralBlocks(message);
        expect(blocks.length, `${name} ${key}: a plural block that does not parse`).toBe(
          [...message.matchAll(/\{\s*\w+\s*,\s*plural\s*,/g)].length,
        );
        for (const block of blocks) {
          expect(Object.keys(block.forms), `${name} ${key}`).toEqual(expect.arrayContaining(['one', 'other']));
          for (const selector of Object.keys(block.forms)) {
            expect(
              PLURAL_CATEGORIES.includes(selector as Intl.LDMLPluralRule) || /^=\d+$/.test(selector),
              `${name} ${key}: ${selector}`,
            ).toBe(true);
          }
        }
      }
    });

    it(`${name}: no count is written bare, where it could not agree with its noun`, () => {
      for (const [key, message] of Object.entries(catalog)) {
        const bare = [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((v) => COUNTED_NAMES.includes(v));
        expect(bare, `${name} ${key}`).toEqual([]);
      }
    });
  }

  it('French and English count the same things', () => {
    for (const key of Object.keys(fr) as MessageKey[]) {
      expect(
        pluralBlocks(en[key]).map((b) => b.name),
        key,
      ).toEqual(pluralBlocks(fr[key]).map((b) => b.name));
    }
  });

  it('every language of the service has plural rules', () => {
    for (const locale of LOCALES) expect(new Intl.PluralRules(locale).resolvedOptions().locale).toBe(locale);
  });
});

import { describe, expect, it } from 'vitest';
import { negotiateLocale, parseAcceptLanguage, type Locale } from '../../src/i18n/index.ts';

const base = { supported: ['fr', 'en'] as Locale[], fallback: 'fr' as Locale };

describe('negotiateLocale', () => {
  it('prefers ui_locales over the cookie and Accept-Language', () => {
    expect(negotiateLocale({ ...base, uiLocales: 'en', cookie: 'fr', acceptLanguage: 'fr' })).toBe('en');
  });

  it('takes the first supported tag of ui_locales, matching on the primary subtag', () => {
    expect(negotiateLocale({ ...base, uiLocales: 'de-DE es en-GB fr' })).toBe('en');
    expect(negotiateLocale({ ...base, uiLocales: 'fr-CI' })).toBe('fr');
  });

  it('falls back to the cookie when no ui_locales tag is supported', () => {
    expect(negotiateLocale({ ...base, uiLocales: 'de', cookie: 'en', acceptLanguage: 'fr' })).toBe('en');
  });

  it('ignores an unsupported cookie and uses Accept-Language', () => {
    expect(negotiateLocale({ ...base, cookie: 'zz', acceptLanguage: 'en-US,en;q=0.9' })).toBe('en');
  });

  it('respects q-values rather than header order', () => {
    expect(negotiateLocale({ ...base, fallback: 'fr', acceptLanguage: 'fr;q=0.4, en;q=0.8' })).toBe('en');
    expect(negotiateLocale({ ...base, fallback: 'en', acceptLanguage: 'en;q=0.1, de, fr-FR;q=0.5' })).toBe('fr');
  });

  it('never picks a language marked q=0', () => {
    expect(negotiateLocale({ ...base, fallback: 'fr', acceptLanguage: 'en;q=0, fr;q=0' })).toBe('fr');
    expect(negotiateLocale({ ...base, fallback: 'en', acceptLanguage: 'fr;q=0, de' })).toBe('en');
  });

  it('uses the fallback when nothing matches', () => {
    expect(negotiateLocale({ ...base, fallback: 'en' })).toBe('en');
    expect(negotiateLocale({ ...base, fallback: 'fr', acceptLanguage: 'de, *;q=0.5' })).toBe('fr');
  });

  it('only returns supported languages', () => {
    expect(negotiateLocale({ supported: ['fr'], fallback: 'fr', uiLocales: 'en', cookie: 'en', acceptLanguage: 'en' })).toBe('fr');
  });
});

describe('parseAcceptLanguage', () => {
  it('orders by weight, keeps header order for equal weights, drops malformed weights', () => {
    expect(parseAcceptLanguage('da, en-GB;q=0.8, en;q=0.8, fr;q=0.9, de;q=abc, es;q=1.5')).toEqual(['da', 'fr', 'en-GB', 'en']);
  });

  it('returns nothing for a missing or empty header', () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });
});

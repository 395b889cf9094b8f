import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.ts';
import { fr } from '../../src/i18n/fr.ts';
import { LOCALES, messagesFor, t } from '../../src/i18n/index.ts';

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogs', () => {
  it('have exactly the same keys', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(fr).sort());
  });

  it('use the same placeholders in every language', () => {
    for (const key of Object.keys(fr) as (keyof typeof fr)[]) {
      expect(placeholders(en[key]), key).toEqual(placeholders(fr[key]));
    }
  });

  it('have no empty message', () => {
    for (const locale of LOCALES) {
      for (const [key, message] of Object.entries(messagesFor(locale))) expect(message.trim(), `${locale} ${key}`).not.toBe('');
    }
  });

  it('write French with its accents and typography', () => {
    expect(t('fr', 'login.submit')).toBe('Se connecter');
    expect(t('fr', 'login.email')).toBe('Adresse e\u2011mail');
    expect(t('fr', 'login.password')).toBe('Mot de passe');
    expect(t('fr', 'consent.accept')).toBe('Autoriser');
    expect(t('fr', 'consent.refuse')).toBe('Refuser');
    expect(t('fr', 'logout.title')).toBe('Se déconnecter');
    // A narrow no-break space before a question mark.
    expect(t('fr', 'logout.question')).toMatch(/\u202f\?$/);
  });
});

describe('t', () => {
  it('fills placeholders and leaves unknown ones as written', () => {
    expect(t('en', 'login.intro', { client: 'Boutique' })).toBe('Sign in to continue to Boutique.');
    expect(t('fr', 'login.intro', { client: 'Boutique' })).toBe('Connectez-vous pour continuer vers Boutique.');
    expect(t('en', 'login.intro')).toBe('Sign in to continue to {client}.');
  });

  it('does not interpret replacement patterns in values', () => {
    expect(t('en', 'login.intro', { client: '$& $1' })).toBe('Sign in to continue to $& $1.');
  });
});

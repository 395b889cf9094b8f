// The catalogues' typography on a narrow screen: French punctuation keeps its space and never starts a
// line (U+202F before ; ! ?, U+00A0 before :), and "e‑mail" on a page never breaks at its hyphen
// (U+2011, a non-breaking hyphen). E-mails (mail.*) keep a plain hyphen: mail clients and search do not
// all know U+2011.
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.ts';
import { fr } from '../../src/i18n/fr.ts';
import { portalEn } from '../../src/i18n/portal-en.ts';
import { portalFr } from '../../src/i18n/portal-fr.ts';

const catalogues = { fr, en, portalFr, portalEn } as Record<string, Record<string, string>>;

describe('catalogue typography', () => {
  it('puts a no-break space before French ; ! ? and :', () => {
    for (const [name, messages] of Object.entries({ fr, portalFr } as Record<string, Record<string, string>>)) {
      for (const [key, message] of Object.entries(messages)) {
        // An ordinary space (or none) before the mark, outside a placeholder, a URL or an ICU block.
        const plain = message.replace(/\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '').match(/( |[^\s\u00a0\u202f])[;!?:](?=\s|$)/g);
        const wrong = (plain ?? []).filter((m) => m.startsWith(' '));
        expect(wrong, `${name} ${key}: "${message}"`).toEqual([]);
      }
    }
  });

  it('spells "e‑mail" with a non-breaking hyphen on pages, a plain one in e-mails', () => {
    for (const [name, messages] of Object.entries(catalogues)) {
      for (const [key, message] of Object.entries(messages)) {
        const plain = /\b[eE]-mail/.test(message);
        if (key.startsWith('mail.')) expect(/[eE]\u2011mail/.test(message), `${name} ${key}`).toBe(false);
        else expect(plain, `${name} ${key}: "${message}"`).toBe(false);
      }
    }
    expect(fr['login.email']).toBe('Adresse e\u2011mail');
    expect(en['login.email']).toBe('E\u2011mail address');
    expect(fr['mail.verify.subject']).toBe('Confirmez votre adresse e-mail');
  });

  it('names the refusal in the consent sentence with the word on its button', () => {
    expect(en['consent.why']).toContain(`choose ${en['consent.refuse']}.`);
    expect(fr['consent.why']).toContain(`choisissez ${fr['consent.refuse']}.`);
  });
});

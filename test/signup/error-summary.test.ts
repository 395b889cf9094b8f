// The sign-up form sent with mistakes: a summary at the top lists them, each a link to its field, and takes
// the focus when the page opens (the GOV.UK pattern, with `autofocus` instead of a script); under each
// field, the error says what is wrong with what was typed and leaves the rule to the hint above it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, type Page } from '../support/browser.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newUser, openSignup, submitSignup } from './journey.ts';

let svc: TestService;
let rp: RelyingParty;
beforeAll(async () => {
  svc = await startTestService();
  rp = await relyingParty(svc.url, await svc.createClient());
});
afterAll(() => svc.stop());

const decode = (text: string) => text.replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The summary's opening tag, heading and links ([target, text]); undefined when the page has none. */
function summaryOf(html: string) {
  const match = /(<div class="alert error-summary"[^>]*>)([\s\S]*?)<\/div>/.exec(html);
  if (!match) return undefined;
  const heading = /<h2 id="error-summary-title">([^<]+)<\/h2>/.exec(match[2])?.[1] ?? '';
  const links = [...match[2].matchAll(/<a href="#([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], decode(m[2])]);
  return { tag: match[1], heading, links };
}

const fieldError = (html: string, field: string) => decode(new RegExp(`id="${field}-error">([^<]+)<`).exec(html)?.[1] ?? '');

async function submitted(fields: Partial<ReturnType<typeof newUser>>, params: Record<string, string> = {}): Promise<Page> {
  const browser = new Browser(svc.url);
  const { form } = await openSignup(browser, rp, params);
  return submitSignup(browser, form, newUser(fields));
}

describe('sign-up errors', () => {
  it('open with a focused summary of two errors, each a link to its field', async () => {
    const page = await submitted({ email: 'pas-une-adresse', password: 'court' });
    expect(page.status).toBe(400);
    const summary = summaryOf(page.html)!;
    expect(summary).toBeDefined();
    expect(summary.tag).toContain('tabindex="-1"');
    expect(summary.tag).toContain('autofocus');
    expect(summary.heading).toMatch(/^2\s?erreurs à corriger$/);
    expect(summary.links).toEqual([
      ['email', fieldError(page.html, 'email')],
      ['password', fieldError(page.html, 'password')],
    ]);
    // Each link leads to an input of the page, which says it is in error.
    for (const [target] of summary.links) expect(page.html).toMatch(new RegExp(`<input id="${target}"[^>]*aria-invalid="true"`));
    // The summary is the one element focused on load, and no script does it.
    expect(page.html.match(/\sautofocus[\s>]/g)).toHaveLength(1);
    expect(page.html).not.toMatch(/<script(?![^>]*\bsrc=)/i);
  });

  it('say what is wrong without repeating the hint shown under the label', async () => {
    const cases: Array<[Partial<ReturnType<typeof newUser>>, string, string]> = [
      [{ username: '' }, 'username', 'Choisissez un nom d’utilisateur.'],
      [{ username: 'ab' }, 'username', 'Ce nom d’utilisateur est trop court.'],
      [{ username: 'a'.repeat(33) }, 'username', 'Ce nom d’utilisateur est trop long.'],
      [{ username: 'nom avec espace' }, 'username', 'Ce nom d’utilisateur contient une espace.'],
      [{ username: 'nom!' }, 'username', 'Ce nom d’utilisateur contient un caractère qui n’est pas accepté.'],
      [{ password: '' }, 'password', 'Choisissez un mot de passe.'],
      [{ password: 'court' }, 'password', 'Ce mot de passe est trop court.'],
      [{ password: 'azerty123' }, 'password', 'Ce mot de passe est trop courant\u00a0: il serait vite deviné. Choisissez-en un autre.'],
      [{ email: '' }, 'email', 'Saisissez votre adresse e\u2011mail.'],
      [{ firstName: '' }, 'firstName', 'Saisissez votre prénom.'],
    ];
    for (const [fields, field, message] of cases) {
      const page = await submitted(fields);
      const error = fieldError(page.html, field);
      expect(error, JSON.stringify(fields)).toBe(message);
      // The rule stays in the hint, once.
      for (const rule of ['3 à 32', 'lettres, chiffres', '8 caractères', 'plusieurs mots']) expect(error).not.toContain(rule);
      expect(page.html.match(/Au moins 8 caractères/g)).toHaveLength(1);
      expect(page.html.match(/De 3 à 32 caractères/g)).toHaveLength(1);
      expect(summaryOf(page.html)?.links).toHaveLength(1);
    }
  });

  it('are summarized in English too', async () => {
    const page = await submitted({ username: 'a', firstName: '', password: 'iloveyou' }, { ui_locales: 'en' });
    const summary = summaryOf(page.html)!;
    expect(summary.heading).toBe('3 errors to fix');
    expect(summary.links.map(([target]) => target)).toEqual(['username', 'first_name', 'password']);
    expect(summary.links.map(([, text]) => text)).toEqual([
      'This username is too short.',
      'Enter your first name.',
      'This password is too common: it would be guessed quickly. Choose another one.',
    ]);
  });

  it('leave a form without mistakes with no summary, the first field focused', async () => {
    const browser = new Browser(svc.url);
    const { form } = await openSignup(browser, rp);
    expect(summaryOf(form.html)).toBeUndefined();
    expect(form.html).toMatch(/<input id="email"[^>]*autofocus/);
  });
});

// The account rules on their own: what each field may be, and the reason a refusal names.
import { describe, expect, it } from 'vitest';
import { ruleMessage } from '../../src/accounts/rule-messages.ts';
import { AccountRuleError, assertNoProblems, checkAccountDetails, checkNewAccount, checkNewPassword } from '../../src/accounts/rules.ts';
import { t } from '../../src/i18n/index.ts';

const good = { email: 'awa.diallo@example.org', username: 'awa_d', firstName: 'Awa', password: 'un thé au bord de la lagune' };

describe('account rules', () => {
  it('accept an ordinary account, in any script', () => {
    expect(checkNewAccount(good)).toEqual([]);
    expect(checkNewAccount({ ...good, username: 'aïcha.koné', firstName: 'Aïcha' })).toEqual([]);
  });

  it('refuse an e-mail without a domain, with a space, or longer than SMTP carries', () => {
    for (const email of ['awa', 'awa@localhost', 'awa diallo@example.org', 'awa@example.o', `${'a'.repeat(64)}@${'b'.repeat(186)}.org`]) {
      expect(checkAccountDetails({ ...good, email }), email).toEqual([{ field: 'email', reason: 'invalid' }]);
    }
  });

  it('refuse a username shorter than 3, longer than 32, or with other signs than . _ -', () => {
    for (const username of ['aw', 'a'.repeat(33), 'awa diallo', 'awa@home']) {
      expect(checkAccountDetails({ ...good, username }), username).toEqual([{ field: 'username', reason: 'invalid' }]);
    }
    expect(checkAccountDetails({ ...good, username: 'a'.repeat(32) })).toEqual([]);
  });

  it('refuse a missing first name and one over 64 characters (counted as the user sees them)', () => {
    expect(checkAccountDetails({ ...good, firstName: '' })).toEqual([{ field: 'firstName', reason: 'missing' }]);
    expect(checkAccountDetails({ ...good, firstName: 'é'.repeat(65) })).toEqual([{ field: 'firstName', reason: 'tooLong' }]);
    expect(checkAccountDetails({ ...good, firstName: 'é'.repeat(64) })).toEqual([]);
  });

  it('apply the password policy, with the account details as personal words', () => {
    expect(checkNewPassword('password')).toEqual({ field: 'password', reason: 'common' });
    expect(checkNewPassword('short')).toEqual({ field: 'password', reason: 'tooShort' });
    expect(checkNewPassword('awa_d2024', good)).toEqual({ field: 'password', reason: 'personal' });
    // Judged after NFKC, as it is hashed: full-width letters are the common password itself.
    expect(checkNewPassword('ｐａｓｓｗｏｒｄ')).toEqual({ field: 'password', reason: 'common' });
  });

  it('list every problem in the order of the sign-up form', () => {
    const problems = checkNewAccount({ email: 'x', username: 'x', firstName: '', password: 'x' });
    expect(problems.map((p) => p.field)).toEqual(['email', 'username', 'firstName', 'password']);
  });

  it('refuse with a typed error naming the field and the reason, never the value', () => {
    let caught: unknown;
    try {
      assertNoProblems(checkNewAccount({ ...good, password: 'iloveyou' }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AccountRuleError);
    expect(caught).toMatchObject({ field: 'password', reason: 'common', problems: [{ field: 'password', reason: 'common' }] });
    expect((caught as Error).message).not.toContain('iloveyou');
    expect(() => assertNoProblems([])).not.toThrow();
  });

  it('have a sentence in every language for every reason', () => {
    const problems = checkNewAccount({ email: 'x', username: 'x', firstName: 'é'.repeat(65), password: 'x' });
    expect(problems.map(ruleMessage)).toEqual([
      'signup.error.email',
      'signup.error.username',
      'signup.error.firstName',
      'password.error.tooShort',
    ]);
    for (const reason of ['tooShort', 'tooLong', 'common', 'personal'] as const) {
      const key = ruleMessage({ field: 'password', reason });
      expect(t('fr', key)).not.toBe(t('en', key));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { checkPassword, PASSWORD_MAX_LENGTH } from '../../src/accounts/password-policy.ts';

describe('checkPassword (NIST SP 800-63B)', () => {
  it('needs 8 characters, counted as the user sees them', () => {
    expect(checkPassword('1234567')).toBe('tooShort');
    expect(checkPassword('ééééé🙂🙂')).toBe('tooShort');
    expect(checkPassword('ééé ü🙂🙂x')).toBeUndefined();
  });

  it('allows long passphrases up to the ceiling', () => {
    expect(checkPassword('a b '.repeat(64).slice(0, PASSWORD_MAX_LENGTH))).toBeUndefined();
    expect(checkPassword('ab'.repeat(129))).toBe('tooLong');
  });

  it('refuses common and breached-style passwords, whatever their case', () => {
    for (const p of [
      'password',
      'Password1',
      'AZERTY123',
      'motdepasse',
      'soleil2020',
      'iloveyou',
      '12345678',
      'qwertyuiop',
      'aaaaaaaaaaaa',
    ]) {
      expect(checkPassword(p), p).toBe('common');
    }
  });

  it('refuses the user’s own e-mail, username or first name', () => {
    const who = { email: 'aya.kone@example.org', username: 'ayakone', firstName: 'Aya' };
    expect(checkPassword('aya.kone@example.org', who)).toBe('personal');
    expect(checkPassword('AyaKone2024', who)).toBe('personal');
    expect(checkPassword('aya.kone', who)).toBe('personal');
  });

  it('has no composition rules', () => {
    expect(checkPassword('correct horse battery staple')).toBeUndefined();
    expect(checkPassword('onlylowercaseletters')).toBeUndefined();
  });
});

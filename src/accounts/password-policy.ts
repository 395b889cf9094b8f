// Password rules after NIST SP 800-63B (5.1.1.2): a length floor, a generous ceiling so that long
// passphrases fit, a check against common and breached-style passwords and the user's own details,
// and deliberately no composition rules (they push users to predictable patterns such as "Azerty1!").
import { readFileSync } from 'node:fs';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'common' | 'personal';

let common: Set<string> | undefined;

/** The bundled list, loaded on first use (about 11,000 lines). */
function commonPasswords(): Set<string> {
  if (!common) {
    const text = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
    common = new Set(text.split('\n').filter((line) => line && !line.startsWith('#')));
  }
  return common;
}

/** Why this password is refused, or undefined when it is acceptable. */
export function checkPassword(
  raw: string,
  context: { email?: string; username?: string; firstName?: string } = {},
): PasswordProblem | undefined {
  // Judged as it is hashed (NFKC, see password.ts), so that a full-width "ｐａｓｓｗｏｒｄ" is as common as "password".
  const password = raw.normalize('NFKC');
  // Counted in code points, so that an accented or emoji passphrase is measured as the user sees it.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (length > PASSWORD_MAX_LENGTH) return 'tooLong';
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'common';
  // A password that is just a repeated character or the user's own identifiers is guessed first.
  if (/^(.)\1*$/u.test(password)) return 'common';
  const personal = [context.email, context.email?.split('@')[0], context.username, context.firstName]
    .map((value) => value?.normalize('NFKC').trim().toLowerCase())
    .filter((value): value is string => !!value && value.length >= 3);
  if (personal.some((value) => lower === value || lower.replace(/[\d\W_]+$/u, '') === value)) return 'personal';
  return undefined;
}

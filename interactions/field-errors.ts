// What the sign-up and new-password forms say under a field in error: what is wrong with what was typed,
// never the rule again, which the hint under the label already gives ("De 3 à 32 caractères", "Au moins
// 8 caractères"). The account rules (src/accounts/rules.ts) say which field is refused and why; the CLI
// states each rule whole (rule-messages.ts), since it has no hint to lean on.
import { ruleMessage } from '../src/accounts/rule-messages.ts';
import type { PasswordProblem } from '../src/accounts/password-policy.ts';
import type { AccountFields, AccountRuleProblem } from '../src/accounts/rules.ts';
import type { MessageKey } from '../src/i18n/index.ts';

const USERNAME_MIN = 3;
const USERNAME_MAX = 32;
const EMAIL_MAX = 254;

/** The message under the field a rule refused, given what was typed in the form. */
export function fieldError(problem: AccountRuleProblem, fields: Partial<AccountFields>): MessageKey {
  switch (problem.field) {
    case 'email':
      return emailError(fields.email ?? '');
    case 'username':
      return problem.reason === 'invalid' ? usernameError(fields.username ?? '') : ruleMessage(problem);
    case 'firstName':
      return problem.reason === 'missing' ? 'signup.fieldError.firstNameMissing' : 'signup.fieldError.firstNameTooLong';
    case 'password':
      return passwordError(problem.reason, fields.password ?? '');
  }
}

/** The message under a new password's field. */
export function passwordError(problem: PasswordProblem, password: string): MessageKey {
  switch (problem) {
    case 'tooShort':
      return password ? 'signup.fieldError.passwordTooShort' : 'signup.fieldError.passwordMissing';
    case 'tooLong':
      return 'signup.fieldError.passwordTooLong';
    case 'common':
      return 'signup.fieldError.passwordCommon';
    case 'personal':
      return 'password.error.personal';
  }
}

function emailError(email: string): MessageKey {
  if (!email) return 'signup.fieldError.emailMissing';
  if (email.length > EMAIL_MAX) return 'signup.fieldError.emailTooLong';
  return 'signup.fieldError.emailFormat';
}

function usernameError(username: string): MessageKey {
  // Counted in code points, as the rule counts them.
  const length = [...username].length;
  if (!length) return 'signup.fieldError.usernameMissing';
  if (/\s/u.test(username)) return 'signup.fieldError.usernameSpace';
  if (/[^\p{L}\p{N}._-]/u.test(username)) return 'signup.fieldError.usernameCharacter';
  if (length < USERNAME_MIN) return 'signup.fieldError.usernameTooShort';
  if (length > USERNAME_MAX) return 'signup.fieldError.usernameTooLong';
  // The rule refused it for a reason this form does not know yet: its whole sentence.
  return 'signup.error.username';
}

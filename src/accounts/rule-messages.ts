// The catalog key that explains each refusal of the account rules. Pages and the CLI translate the
// same reason with the same key, so a user reads the same sentence wherever the account was refused.
import type { MessageKey } from '../i18n/index.ts';
import type { PasswordProblem } from './password-policy.ts';
import type { AccountRuleProblem } from './rules.ts';
import type { DuplicateAccountError } from './store.ts';

export const PASSWORD_MESSAGES: Readonly<Record<PasswordProblem, MessageKey>> = {
  tooShort: 'password.error.tooShort',
  tooLong: 'password.error.tooLong',
  common: 'password.error.common',
  personal: 'password.error.personal',
};

// One sentence per field for its identity rules: it states the whole rule, whichever part was broken.
const EMAIL_MESSAGE: MessageKey = 'signup.error.email';
const USERNAME_MESSAGE: MessageKey = 'signup.error.username';
const USERNAME_SCRIPTS_MESSAGE: MessageKey = 'signup.error.usernameScripts';
const FIRST_NAME_MESSAGE: MessageKey = 'signup.error.firstName';

export function ruleMessage(problem: AccountRuleProblem): MessageKey {
  switch (problem.field) {
    case 'email':
      return EMAIL_MESSAGE;
    case 'username':
      return problem.reason === 'mixedScripts' ? USERNAME_SCRIPTS_MESSAGE : USERNAME_MESSAGE;
    case 'firstName':
      return FIRST_NAME_MESSAGE;
    case 'password':
      return PASSWORD_MESSAGES[problem.reason];
  }
}

/** A username another account holds, or one that looks like it: the sign-up page's words, wherever a name is chosen. */
export const USERNAME_CONFLICT_MESSAGES: Readonly<Record<DuplicateAccountError['reason'], MessageKey>> = {
  taken: 'signup.error.usernameTaken',
  lookalike: 'signup.error.usernameLookalike',
};

// The rules every account obeys, whichever door it comes through: the sign-up form, the CLI, the
// password reset and the account page all end in the account store, which applies these. One set, so
// that no door accepts what another refuses. Each refusal names the field and a stable reason, which
// `rule-messages.ts` turns into catalog keys.
import { checkPassword, type PasswordProblem } from './password-policy.ts';
import { mixesScripts } from './username-key.ts';

export interface AccountFields {
  email: string;
  username: string;
  firstName: string;
  password: string;
}

export type AccountField = keyof AccountFields;

/** What an account field may be refused for. */
export type AccountRuleProblem =
  | { field: 'email'; reason: 'invalid' }
  | { field: 'username'; reason: 'invalid' | 'mixedScripts' }
  | { field: 'firstName'; reason: 'missing' | 'tooLong' }
  | { field: 'password'; reason: PasswordProblem };

export type AccountRuleReason = AccountRuleProblem['reason'];

// Deliberately loose (one @, a dot in the domain, no spaces): the verification e-mail is the real test.
// 254 characters is the longest address SMTP can carry (RFC 5321 path limit).
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/u;
const EMAIL_MAX_LENGTH = 254;
// Letters and digits of any script (so "aïcha" is welcome), plus the usual separators; the letters of
// one script only (username-key.ts: look-alikes are also refused against existing names, by the store).
const USERNAME = /^[\p{L}\p{N}._-]{3,32}$/u;
export const FIRST_NAME_MAX_LENGTH = 64;

/** The identity fields' problems (not the password's), in the order of the sign-up form. */
export function checkAccountDetails(fields: Omit<AccountFields, 'password'>): AccountRuleProblem[] {
  const problems: AccountRuleProblem[] = [];
  if (!EMAIL.test(fields.email) || fields.email.length > EMAIL_MAX_LENGTH) problems.push({ field: 'email', reason: 'invalid' });
  if (!USERNAME.test(fields.username)) problems.push({ field: 'username', reason: 'invalid' });
  else if (mixesScripts(fields.username)) problems.push({ field: 'username', reason: 'mixedScripts' });
  // Counted in code points, as the user sees the name.
  if (!fields.firstName) problems.push({ field: 'firstName', reason: 'missing' });
  else if ([...fields.firstName].length > FIRST_NAME_MAX_LENGTH) problems.push({ field: 'firstName', reason: 'tooLong' });
  return problems;
}

/** The password's problem for this account (its e-mail, username and first name may not be reused), if any. */
export function checkNewPassword(password: string, account: Partial<Omit<AccountFields, 'password'>> = {}): AccountRuleProblem | undefined {
  const reason = checkPassword(password, account);
  return reason && { field: 'password', reason };
}

/** Every problem of a new account, in the order of the sign-up form; empty when it may be created. */
export function checkNewAccount(fields: AccountFields): AccountRuleProblem[] {
  const password = checkNewPassword(fields.password, fields);
  return password ? [...checkAccountDetails(fields), password] : checkAccountDetails(fields);
}

/** The account store's refusal: `field` and `reason` of the first problem, and all of them in `problems`. */
export class AccountRuleError extends Error {
  override name = 'AccountRuleError';
  readonly field: AccountField;
  readonly reason: AccountRuleReason;

  constructor(readonly problems: readonly [AccountRuleProblem, ...AccountRuleProblem[]]) {
    // The message names fields and reasons only: never the refused value (it may be a password).
    super(`account refused: ${problems.map((p) => `${p.field} ${p.reason}`).join(', ')}`);
    this.field = problems[0].field;
    this.reason = problems[0].reason;
  }
}

/** Throws AccountRuleError when there is any problem. */
export function assertNoProblems(problems: readonly AccountRuleProblem[]): void {
  const [first, ...rest] = problems;
  if (first) throw new AccountRuleError([first, ...rest]);
}

// The sign-up form's rules, as a pure function: which field is wrong and why, or the clean values.
import { checkPassword, type PasswordProblem } from '../src/accounts/password-policy.ts';
import type { MessageKey } from '../src/i18n/index.ts';

export interface SignupFields {
  email: string;
  username: string;
  firstName: string;
  password: string;
}

export type SignupField = keyof SignupFields;

export const PASSWORD_MESSAGES: Readonly<Record<PasswordProblem, MessageKey>> = {
  tooShort: 'password.error.tooShort',
  tooLong: 'password.error.tooLong',
  common: 'password.error.common',
  personal: 'password.error.personal',
};

// Deliberately loose (one @, a dot in the domain, no spaces): the verification e-mail is the real test.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/u;
const USERNAME = /^[\p{L}\p{N}._-]{3,32}$/u;

export function readSignup(body: URLSearchParams): SignupFields {
  return {
    email: (body.get('email') ?? '').trim(),
    username: (body.get('username') ?? '').trim(),
    firstName: (body.get('first_name') ?? '').trim(),
    // Never trimmed: spaces are part of a passphrase.
    password: body.get('password') ?? '',
  };
}

/** Every problem of the form, by field, in the order the fields appear on the page. */
export function validateSignup(fields: SignupFields): Partial<Record<SignupField, MessageKey>> {
  const errors: Partial<Record<SignupField, MessageKey>> = {};
  if (!EMAIL.test(fields.email) || fields.email.length > 254) errors.email = 'signup.error.email';
  if (!USERNAME.test(fields.username)) errors.username = 'signup.error.username';
  if (!fields.firstName || [...fields.firstName].length > 64) errors.firstName = 'signup.error.firstName';
  const problem = checkPassword(fields.password, fields);
  if (problem) errors.password = PASSWORD_MESSAGES[problem];
  return errors;
}

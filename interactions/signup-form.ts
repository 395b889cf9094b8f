// The sign-up form: its fields, and the account rules' refusals as the messages shown beside them (each
// says what is wrong with what was typed, the hint under the label gives the rule: field-errors.ts).
// The rules themselves belong to the accounts (src/accounts/rules.ts), which the store enforces too.
import { checkNewAccount, type AccountField, type AccountFields } from '../src/accounts/rules.ts';
import type { MessageKey } from '../src/i18n/index.ts';
import { fieldError } from './field-errors.ts';

export type SignupFields = AccountFields;
export type SignupField = AccountField;

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
  for (const problem of checkNewAccount(fields)) errors[problem.field] = fieldError(problem, fields);
  return errors;
}

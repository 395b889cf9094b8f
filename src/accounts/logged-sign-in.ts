// A password check behind the brute-force limits (login-guard.ts), with its security event: the one
// function every password form calls, so that every sign-in, refusal and throttling leaves one line.
// The line names the account when it is known, and an address only by its domain.
import { emailDomain, securityEvent, type SecurityEventFields } from '../log/security-log.ts';
import { AccountDisabledError, guardedLogin, type LoginOutcome } from './login-guard.ts';

export interface SignInAttempt {
  /** The form's face, for the log line. */
  source: NonNullable<SecurityEventFields['source']>;
  /**
   * `sign_in`: a success starts a session and is logged as a sign-in. `password_check`: the current
   * password asked again (password change); only a failure or a throttling is logged.
   */
  purpose?: 'sign_in' | 'password_check';
  /** The account already signed in, for a password check. */
  accountId?: string;
}

export async function loggedSignIn(
  deps: Parameters<typeof guardedLogin>[0],
  email: string,
  password: string,
  ip: string,
  attempt: SignInAttempt,
): Promise<LoginOutcome> {
  const fields: SecurityEventFields = { source: attempt.source, account_id: attempt.accountId, email_domain: emailDomain(email) };
  let outcome: LoginOutcome;
  try {
    outcome = await guardedLogin(deps, email, password, ip);
  } catch (error) {
    if (error instanceof AccountDisabledError)
      securityEvent('sign_in.failure', { ...fields, account_id: error.accountId, reason: 'account_disabled' });
    throw error;
  }
  if (outcome.ok) {
    if (attempt.purpose !== 'password_check') securityEvent('sign_in.success', { ...fields, account_id: outcome.account.id });
  } else if (outcome.reason === 'tooMany') {
    securityEvent('sign_in.throttled', { ...fields, limit: 'login', retry_after: outcome.retryAfterSeconds });
  } else {
    securityEvent('sign_in.failure', {
      ...fields,
      reason: attempt.purpose === 'password_check' ? 'wrong_current_password' : 'invalid_credentials',
    });
  }
  return outcome;
}

// The claims an account can release, by name. The engine keeps only those of the granted scopes
// (see SCOPE_CLAIMS); nothing else about the user is ever handed to it.
import type { Account } from '../accounts/store.ts';

export function accountClaims(account: Account): Record<string, string | boolean> {
  return {
    email: account.email,
    email_verified: account.emailVerified,
    username: account.username,
    first_name: account.firstName,
  };
}

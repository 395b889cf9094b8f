// The claims an account can release, by name. The engine keeps only those of the granted scopes
// (see SCOPE_CLAIMS); nothing else about the user is ever handed to it. `sub` is the account id; the
// engine replaces it with the pairwise value for each client.

/** What the claims are made of: an account's identity, as the account store gives it. */
export interface ClaimsAccount {
  id: string;
  email: string;
  emailVerified: boolean;
  username: string;
  firstName: string;
  /** E.164; an account holds a number only once it is verified. */
  phoneNumber?: string;
}

export function accountClaims(account: ClaimsAccount): { sub: string; [claim: string]: string | boolean } {
  // One literal, on every userinfo call and token response: no copy of a second object into it.
  return {
    sub: account.id,
    email: account.email,
    email_verified: account.emailVerified,
    username: account.username,
    first_name: account.firstName,
    // Absent without a number: OpenID Connect leaves out a claim that has no value.
    ...(account.phoneNumber ? { phone_number: account.phoneNumber, phone_number_verified: true } : {}),
  };
}

// The scope-to-claims policy: what each scope lets an application read, and nothing else leaves the
// service. `openid` only identifies the user (pairwise `sub`).
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['username', 'first_name'],
  // OpenID Connect Core §5.4: only ever a verified number (src/phone/), so `phone_number_verified` is true.
  phone: ['phone_number', 'phone_number_verified'],
} as const;

export type ScopeName = keyof typeof SCOPE_CLAIMS;
export const SCOPES = Object.keys(SCOPE_CLAIMS) as ScopeName[];
/** Every application must request these at registration (the spec). */
export const REQUIRED_SCOPES: ScopeName[] = ['openid', 'email'];

export const isScope = (value: string): value is ScopeName => Object.hasOwn(SCOPE_CLAIMS, value);

// The current password asked again before an action that matters (the account page: a new password, a new
// address, a deletion; the developer portal: a new client secret, a deleted application), through the same
// limits as a sign-in, so that a stolen session cannot become a password oracle. Each face shows the
// outcome in its own page; what is checked, counted and logged is this, for all of them.
import type { SecurityEventFields } from '../log/security-log.ts';
import { loggedSignIn } from './logged-sign-in.ts';
import type { Account } from './store.ts';

export type PasswordConfirmation =
  { ok: true } | { ok: false; reason: 'wrong' } | { ok: false; reason: 'tooMany'; retryAfterSeconds: number };

/** How long after a sign-in (or a password typed again) an owner's action goes through without asking. */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;

/** Whether `password` is the account's own; a wrong one and a throttled one are logged as a sign-in's are. */
export async function confirmCurrentPassword(
  deps: Parameters<typeof loggedSignIn>[0],
  account: Pick<Account, 'id' | 'email'>,
  password: string,
  ip: string,
  source: NonNullable<SecurityEventFields['source']>,
): Promise<PasswordConfirmation> {
  const check = await loggedSignIn(deps, account.email, password, ip, { source, purpose: 'password_check', accountId: account.id });
  if (!check.ok && check.reason === 'tooMany') return check;
  // The address may have found another account (one that shares it, from before it was unique): not this one.
  if (!check.ok || check.account.id !== account.id) return { ok: false, reason: 'wrong' };
  return { ok: true };
}

// Instances' clocks differ by a little: a moment this far ahead of ours still counts as now. Further ahead,
// the clock was set back, and the moment would stay "recent" for as long as it was set back by.
const CLOCK_SKEW_MS = 60_000;

/** Whether the latest of these moments (epoch milliseconds: a sign-in, a password typed again) is recent. */
export function signedInRecently(moments: ReadonlyArray<number | undefined>, now = Date.now()): boolean {
  const latest = Math.max(0, ...moments.map((moment) => moment ?? 0));
  return latest - now <= CLOCK_SKEW_MS && now - latest <= RECENT_SIGN_IN_SECONDS * 1000;
}

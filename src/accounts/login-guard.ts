// A password sign-in behind the brute-force limits, shared by the interaction login, the account page
// and the password change. The answer is the same for an unknown e-mail and a wrong password, and the
// per-account limit counts any address typed, registered or not, so it reveals nothing either.
import { checkSignIn, type Account, type AccountStore } from './store.ts';
import { limitKeyFor, type RateLimits } from './rate-limits.ts';

/**
 * The password was right but an administrator has disabled the account. Thrown rather than returned,
 * so that every sign-in form shows the same page (src/pages/page-errors.ts) without a branch of its
 * own; only someone who knows the password learns that the account is disabled.
 */
export class AccountDisabledError extends Error {
  override name = 'AccountDisabledError';

  constructor(readonly accountId: string) {
    super('this account is disabled');
  }
}

export type LoginOutcome =
  { ok: true; account: Account } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'tooMany'; retryAfterSeconds: number };

export async function guardedLogin(
  deps: { accounts: Pick<AccountStore, 'findForSignIn'>; limits: Pick<RateLimits, 'loginPerAccount' | 'loginPerIp'> },
  email: string,
  password: string,
  ip: string,
): Promise<LoginOutcome> {
  const { loginPerAccount, loginPerIp } = deps.limits;
  // One read of the address serves the limit's key and the password check below.
  const candidate = await deps.accounts.findForSignIn(email);
  const accountKey = limitKeyFor(candidate?.account, email);
  // Every attempt is counted before the password is checked: a check-then-count would let parallel
  // requests all pass the check before any of them is counted. Once over, even the right password
  // waits, or the limit would be an oracle.
  const [accountWait, ipWait] = await Promise.all([loginPerAccount.consume(accountKey), loginPerIp.consume(ip)]);
  const wait = Math.max(accountWait, ipWait);
  if (wait > 0) return { ok: false, reason: 'tooMany', retryAfterSeconds: wait };
  const account = await checkSignIn(candidate, password);
  if (!account) return { ok: false, reason: 'invalid' };
  if (account.disabled) throw new AccountDisabledError(account.id);
  // A successful sign-in clears the account's failures; the IP keeps its failures (one IP, many
  // accounts) but not this success.
  await Promise.all([loginPerAccount.reset(accountKey), loginPerIp.refund(ip)]);
  const { disabled: _disabled, ...signedIn } = account;
  return { ok: true, account: signedIn };
}

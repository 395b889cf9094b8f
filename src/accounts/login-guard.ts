// A password sign-in behind the brute-force limits, shared by the interaction login, the account page
// and the password change. The answer is the same for an unknown e-mail and a wrong password, and the
// per-account limit counts any address typed, registered or not, so it reveals nothing either.
import type { Account, AccountStore } from './store.ts';
import type { RateLimits } from './rate-limits.ts';

export type LoginOutcome = { ok: true; account: Account } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'tooMany'; retryAfterSeconds: number };

export async function guardedLogin(
  deps: { accounts: Pick<AccountStore, 'authenticate'>; limits: Pick<RateLimits, 'loginPerAccount' | 'loginPerIp'> },
  email: string,
  password: string,
  ip: string,
): Promise<LoginOutcome> {
  const { loginPerAccount, loginPerIp } = deps.limits;
  // Checked before the password: once blocked, even the right password waits, or the limit would be an oracle.
  const wait = Math.max(await loginPerAccount.blockedFor(email), await loginPerIp.blockedFor(ip));
  if (wait > 0) return { ok: false, reason: 'tooMany', retryAfterSeconds: wait };
  const account = await deps.accounts.authenticate(email, password);
  if (!account) {
    await Promise.all([loginPerAccount.hit(email), loginPerIp.hit(ip)]);
    return { ok: false, reason: 'invalid' };
  }
  // A successful sign-in clears the account's failures; the IP keeps its count (one IP, many accounts).
  await loginPerAccount.reset(email);
  return { ok: true, account };
}

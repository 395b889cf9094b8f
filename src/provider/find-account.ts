// The engine's findAccount hook: an account and the claims it may release (src/policy/claims.ts).
import type { FindAccount, KoaContextWithOIDC } from 'oidc-provider';
import type { Account, AccountStore } from '../accounts/store.ts';
import { accountClaims } from '../policy/claims.ts';

/**
 * The engine looks the account up on every userinfo call and token response; reading it from SQL each
 * time costs a large share of userinfo's throughput. Accounts are kept a few seconds: a change made
 * in this process drops its copy at once, one made by another instance shows within `maxAgeMs`.
 */
export function makeFindAccount(accounts: Pick<AccountStore, 'findById' | 'onChange'>, maxAgeMs = 5000): FindAccount {
  const cache = new Map<string, { at: number; account: Account }>();
  accounts.onChange((id) => cache.delete(id));

  const load = async (id: string): Promise<Account | undefined> => {
    const hit = cache.get(id);
    // Ages on a clock that cannot go back: a wall clock set back would keep a copy past maxAgeMs.
    if (hit && performance.now() - hit.at < maxAgeMs) return hit.account;
    const account = await accounts.findById(id);
    if (cache.size > 10_000) cache.clear();
    if (account) cache.set(id, { at: performance.now(), account });
    else cache.delete(id);
    return account;
  };

  return async (ctx, id) => {
    const account = await load(id);
    if (!account) {
      signOutSession(ctx, id);
      return undefined;
    }
    return {
      accountId: account.id,
      claims: () => accountClaims(account),
    };
  };
}

/**
 * A browser session whose account no longer exists (deleted, by the CLI or another instance, while the
 * session lived) is treated as signed out: the engine would otherwise go on with a session and no
 * account, and fail (a 500 on `prompt=none`). Without an account the session asks for a login, or
 * answers `login_required`, as a signed-out one does, and it is saved so. Its per-application state
 * went with the account.
 */
function signOutSession(ctx: Partial<Pick<KoaContextWithOIDC, 'oidc'>> | undefined, accountId: string): void {
  const session = ctx?.oidc?.session;
  if (session?.accountId !== accountId) return;
  // Deleted rather than set: the engine's session refuses an accountId that is not a string
  // (lib/shared/session.js), but reads a missing one as "nobody signed in".
  delete session.accountId;
  delete session.loginTs;
  delete session.amr;
  delete session.acr;
  // Set, so that the engine saves the session signed out.
  session.authorizations = {};
}

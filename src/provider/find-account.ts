// The engine's findAccount hook: an account and the claims it may release. `sub` is the account id
// here; the engine replaces it with the pairwise value for each client.
import type { FindAccount } from 'oidc-provider';
import type { AccountStore } from '../accounts/store.ts';
import { accountClaims } from '../policy/claims.ts';

export function makeFindAccount(accounts: Pick<AccountStore, 'findById'>): FindAccount {
  return async (_ctx, id) => {
    const account = await accounts.findById(id);
    if (!account) return undefined;
    return {
      accountId: account.id,
      claims: () => ({ sub: account.id, ...accountClaims(account) }),
    };
  };
}

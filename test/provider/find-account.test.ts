// findAccount: claims of the account by name, read from SQL at most once per few seconds, and read
// again at once after a change in this process.
import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/accounts/store.ts';
import { makeFindAccount } from '../../src/provider/find-account.ts';

function fakeAccounts(account: Account) {
  const listeners: Array<(id: string) => void> = [];
  const store = {
    reads: 0,
    async findById(id: string) {
      store.reads += 1;
      return id === account.id ? { ...account } : undefined;
    },
    onChange(listener: (id: string) => void) {
      listeners.push(listener);
      return () => {};
    },
    change(id: string) {
      for (const l of listeners) l(id);
    },
  };
  return store;
}

const account: Account = { id: 'a1', email: 'fatou@example.org', emailVerified: false, username: 'fatou', firstName: 'Fatou' };
const ctx = {} as never;

describe('findAccount', () => {
  it('releases exactly the claims of the policy', async () => {
    const found = await makeFindAccount(fakeAccounts(account))(ctx, 'a1');
    expect(await found!.claims('userinfo', 'openid email profile', {}, [])).toEqual({
      sub: 'a1',
      email: 'fatou@example.org',
      email_verified: false,
      username: 'fatou',
      first_name: 'Fatou',
    });
  });

  it('reads an account once within the cache lifetime, and again after a change', async () => {
    const store = fakeAccounts(account);
    const findAccount = makeFindAccount(store, 60_000);
    await findAccount(ctx, 'a1');
    await findAccount(ctx, 'a1');
    expect(store.reads).toBe(1);
    store.change('a1');
    await findAccount(ctx, 'a1');
    expect(store.reads).toBe(2);
  });

  it('answers undefined for an unknown account', async () => {
    expect(await makeFindAccount(fakeAccounts(account))(ctx, 'nobody')).toBeUndefined();
  });
});

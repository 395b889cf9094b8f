// The account store enforces the account rules itself, so that no door (sign-up, CLI, reset, account
// page) can write an account or a password that another would refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../adapters/sql/database.ts';
import { AccountRuleError } from '../../src/accounts/rules.ts';
import { AccountStore, DuplicateAccountError } from '../../src/accounts/store.ts';
import { freshPglite } from '../support/databases.ts';

let db: Database;
let accounts: AccountStore;
const PASSPHRASE = 'un thé au bord de la lagune';

beforeAll(async () => {
  db = await freshPglite();
  accounts = new AccountStore(db);
});
afterAll(() => db?.close());

async function refusal(attempt: Promise<unknown>): Promise<AccountRuleError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AccountRuleError);
  return error as AccountRuleError;
}

const count = async (): Promise<number> => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM accounts')).rows[0].n);

describe('AccountStore and the account rules', () => {
  it('refuses to create an account with a common, short or personal password, and stores nothing', async () => {
    const before = await count();
    const user = { email: 'awa@example.org', username: 'awa', firstName: 'Awa' };
    expect(await refusal(accounts.create({ ...user, password: 'password' }))).toMatchObject({ field: 'password', reason: 'common' });
    expect(await refusal(accounts.create({ ...user, password: 'court' }))).toMatchObject({ field: 'password', reason: 'tooShort' });
    expect(await refusal(accounts.create({ ...user, password: 'awa@example.org' }))).toMatchObject({
      field: 'password',
      reason: 'personal',
    });
    expect(await count()).toBe(before);
  });

  it('refuses an e-mail, username or first name the sign-up form refuses, after trimming', async () => {
    const user = { email: 'binta@example.org', username: 'binta', firstName: 'Binta', password: PASSPHRASE };
    expect(await refusal(accounts.create({ ...user, email: 'binta@localhost' }))).toMatchObject({ field: 'email', reason: 'invalid' });
    expect(await refusal(accounts.create({ ...user, username: 'b' }))).toMatchObject({ field: 'username', reason: 'invalid' });
    expect(await refusal(accounts.create({ ...user, firstName: '   ' }))).toMatchObject({ field: 'firstName', reason: 'missing' });
    const created = await accounts.create({ ...user, email: ' binta@example.org ', username: ' binta ' });
    expect(created).toMatchObject({ email: 'binta@example.org', username: 'binta' });
  });

  it('still reports duplicates as before, once the rules pass', async () => {
    await accounts.create({ email: 'chloe@example.org', username: 'chloe', firstName: 'Chloé', password: PASSPHRASE });
    const again = accounts.create({ email: 'CHLOE@example.org', username: 'chloe2', firstName: 'Chloé', password: PASSPHRASE });
    await expect(again).rejects.toBeInstanceOf(DuplicateAccountError);
  });

  it('refuses a new password that breaks the policy and keeps the old one', async () => {
    const account = await accounts.create({ email: 'dia@example.org', username: 'diallo', firstName: 'Dia', password: PASSPHRASE });
    expect(await refusal(accounts.setPassword(account.id, 'azerty123'))).toMatchObject({ field: 'password', reason: 'common' });
    // The account's own username is a personal word for it, not for the policy in general.
    expect(await refusal(accounts.setPassword(account.id, 'Diallo2024!'))).toMatchObject({ field: 'password', reason: 'personal' });
    expect(await accounts.authenticate('dia@example.org', PASSPHRASE)).toMatchObject({ id: account.id });

    await accounts.setPassword(account.id, 'une toute nouvelle phrase');
    expect(await accounts.authenticate('dia@example.org', 'une toute nouvelle phrase')).toMatchObject({ id: account.id });
  });
});

// Usernames that look the same are the same name: compared after NFKC and case folding, unique by their
// confusable skeleton (Unicode TS #39), and written in one script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../adapters/sql/database.ts';
import { checkAccountDetails } from '../../src/accounts/rules.ts';
import { AccountStore, DuplicateAccountError } from '../../src/accounts/store.ts';
import { mixesScripts, usernameSkeleton } from '../../src/accounts/username-key.ts';
import { backfillUsernameSkeletons } from '../../src/accounts/username-skeletons.ts';
import { freshPglite } from '../support/databases.ts';

let db: Database;
let accounts: AccountStore;
let n = 0;
const account = (username: string) => {
  n += 1;
  return { email: `user${n}@example.org`, username, firstName: 'Awa', password: 'un thé au bord de la lagune' };
};

beforeAll(async () => {
  db = await freshPglite();
  accounts = new AccountStore(db);
});
afterAll(() => db?.close());

describe('the confusable skeleton', () => {
  it('is the same for names that only look alike', () => {
    for (const lookalike of ['ａｌｉｃｅ', 'аlice' /* Cyrillic а */, 'αlice' /* Greek α */, 'aIice', 'AIice', 'a1ice']) {
      expect(usernameSkeleton(lookalike), lookalike).toBe(usernameSkeleton('alice'));
    }
    expect(usernameSkeleton('rnallory')).toBe(usernameSkeleton('mallory'));
  });

  it('tells apart names that do not look alike', () => {
    for (const other of ['alicia', 'aïce', 'bob', 'alice2']) expect(usernameSkeleton(other), other).not.toBe(usernameSkeleton('alice'));
  });
});

describe('scripts', () => {
  it('refuses a name mixing Latin with Cyrillic or Greek letters', () => {
    expect(mixesScripts('аlice')).toBe(true); // Cyrillic а
    expect(mixesScripts('bοb')).toBe(true); // Greek ο
    expect(checkAccountDetails({ email: 'a@example.org', username: 'аlice', firstName: 'A' })).toEqual([
      { field: 'username', reason: 'mixedScripts' },
    ]);
  });

  it('accepts one script, digits and separators, and the mixes written in Japanese, Chinese or Korean', () => {
    for (const name of ['aïcha_92', 'алиса', 'αλίκη', 'ユーザー名', '山田taro', 'kim.민준']) expect(mixesScripts(name), name).toBe(false);
  });
});

describe('the account store', () => {
  it('refuses a look-alike of an existing username, whatever its width, case or script', async () => {
    await accounts.create(account('alice'));
    for (const lookalike of ['ａｌｉｃｅ', 'ALICE', 'aIice', 'AIice', 'a1ice']) {
      const refused = await accounts.create(account(lookalike)).catch((e: unknown) => e);
      expect(refused, lookalike).toBeInstanceOf(DuplicateAccountError);
      expect((refused as DuplicateAccountError).field).toBe('username');
      expect(await accounts.usernameConflict(lookalike), lookalike).toBeDefined();
    }
    expect(await accounts.usernameConflict('Alice')).toBe('taken');
    expect(await accounts.usernameConflict('aIice')).toBe('lookalike');
    expect(await accounts.usernameConflict('alicia')).toBeUndefined();
  });

  it('stores the compatibility form of the name (full-width letters become plain ones)', async () => {
    const created = await accounts.create(account('ｋｏｆｆｉ'));
    expect(created.username).toBe('koffi');
  });

  it('gives the accounts created before the skeleton existed theirs at start; two old look-alikes keep one', async () => {
    // As an older version wrote them: no skeleton.
    for (const [id, username] of [
      ['old-1', 'fatou'],
      ['old-2', 'fatоu' /* Cyrillic о */],
      ['old-3', 'moussa'],
    ]) {
      await db.query(
        `INSERT INTO accounts (id, email, username, first_name, password_hash, created_at) VALUES ($1, $2, $3, 'X', 'x', now() - interval '1 day' + ($4 || ' seconds')::interval)`,
        [id, `${id}@example.org`, username, id.slice(-1)],
      );
    }
    expect(await backfillUsernameSkeletons(db)).toBe(2);
    const rows = (
      await db.query<{ id: string; username_skeleton: string | null }>(
        `SELECT id, username_skeleton FROM accounts WHERE id LIKE 'old-%' ORDER BY id`,
      )
    ).rows;
    expect(rows).toEqual([
      { id: 'old-1', username_skeleton: usernameSkeleton('fatou') },
      { id: 'old-2', username_skeleton: null },
      { id: 'old-3', username_skeleton: usernameSkeleton('moussa') },
    ]);
    expect(await backfillUsernameSkeletons(db)).toBe(0);
    expect(await accounts.usernameConflict('fatou')).toBe('taken');
    expect(await accounts.usernameConflict('moussa')).toBe('taken');
  });
});

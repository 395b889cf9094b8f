// Refreshes that finish together commit their rotations in one statement (adapters/sql/rotation-batches.ts),
// and each is judged as if it had been committed alone: a live token moves its family's head, a replay
// loses, a second use of one family is judged on what the first left, and a statement that fails
// consumes nothing. On Postgres and PGlite.
import { describe, expect, it } from 'vitest';
import { isRefreshTokenAdapter, type RefreshTokenAdapter } from '../../adapters/adapter.ts';
import { sqlAdapter } from '../../adapters/sql/adapter.ts';
import type { Database } from '../../adapters/sql/database.ts';
import { openPostgres } from '../../adapters/sql/postgres.ts';
import { familyTokenValue, newFamilyId } from '../../adapters/refresh-family.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { freshPostgres, freshSqlStoresPerFile } from '../support/databases.ts';
import { tokenId } from '../adapters/contract.ts';
import { recording } from './helpers/recording.ts';
import { refreshTokenPayload as payload } from './helpers/refresh-families.ts';

const sqlStores = freshSqlStoresPerFile();

const now = () => Math.floor(Date.now() / 1000);

function refreshTokens(db: Database, grace: number): RefreshTokenAdapter {
  const tokens = sqlAdapter(db, 'RefreshToken', { refreshTokenReuseGrace: grace });
  if (!isRefreshTokenAdapter(tokens)) throw new Error('the SQL store keeps refresh-token families');
  return tokens;
}

/** A family's first token, as a code exchange stores it. */
async function startFamily(tokens: RefreshTokenAdapter) {
  const family = newFamilyId();
  const grantId = `g-${tokenId()}`;
  const first = familyTokenValue(family, tokenId());
  await tokens.upsert(first, payload(first, grantId), 60);
  return { family, grantId, token: first };
}

type Family = Awaited<ReturnType<typeof startFamily>>;

/** The lookup a refresh makes first, then its rotation: the commit is started, not awaited. */
async function prepare(tokens: RefreshTokenAdapter, { family, grantId }: Family, presented: string) {
  await tokens.lookup(presented, now());
  const successor = familyTokenValue(family, tokenId());
  const commit = () =>
    tokens.commitRotation({
      id: presented,
      now: now(),
      successorExpiresAt: now() + 60,
      successor: { id: successor, payload: payload(successor, grantId, storageKey(presented)), expiresIn: 60 },
    });
  return { successor, commit };
}

describe.each(['postgres', 'pglite'] as const)('rotations committed together on %s', (kind) => {
  it('go as one statement, each with its own outcome: live tokens move their heads, a replay loses', async () => {
    const { db, statements } = recording(sqlStores[kind]());
    const tokens = refreshTokens(db, 0);
    const families = await Promise.all([1, 2, 3, 4].map(() => startFamily(tokens)));
    // A fifth family has moved on: its first token, presented again, is a replay.
    const replayed = await startFamily(tokens);
    const moved = await prepare(tokens, replayed, replayed.token);
    expect(await moved.commit()).toBe(true);

    const refreshes = [
      ...(await Promise.all(families.map((f) => prepare(tokens, f, f.token)))),
      await prepare(tokens, replayed, replayed.token),
    ];
    statements.length = 0;
    // Started in the same turn, as refreshes that finish together start them.
    const won = await Promise.all(refreshes.map((r) => r.commit()));

    expect(won).toEqual([true, true, true, true, false]);
    // One statement for the five, none of them on its own.
    expect(statements.filter((s) => s.sql.includes('jsonb_to_recordset'))).toHaveLength(1);
    expect(statements.filter((s) => s.sql.includes('live -> $2::text IS NOT NULL'))).toHaveLength(0);
    for (const [i, family] of families.entries()) {
      expect((await tokens.lookup(refreshes[i].successor, now())).standing, `family ${i}: its successor`).toBe('live');
      expect((await tokens.lookup(family.token, now())).standing, `family ${i}: the token used`).toBe('reuse');
    }
    // The replay changed nothing: the successor of the first use is still the live one.
    expect((await tokens.lookup(moved.successor, now())).standing).toBe('live');
    expect((await tokens.lookup(refreshes[4].successor, now())).payload).toBeUndefined();
  });

  it('judge a second use of one family on what the first left, as if one came after the other', async () => {
    const strict = refreshTokens(sqlStores[kind](), 0);
    const family = await startFamily(strict);
    const [first, second] = [await prepare(strict, family, family.token), await prepare(strict, family, family.token)];
    expect(await Promise.all([first.commit(), second.commit()])).toEqual([true, false]);
    expect((await strict.lookup(first.successor, now())).standing).toBe('live');

    // Within the reuse grace, the second is a parallel refresh: a sibling of the first's successor.
    const lenient = refreshTokens(sqlStores[kind](), 30);
    const other = await startFamily(lenient);
    const [a, b] = [await prepare(lenient, other, other.token), await prepare(lenient, other, other.token)];
    expect(await Promise.all([a.commit(), b.commit()])).toEqual([true, true]);
    expect((await lenient.lookup(a.successor, now())).standing).toBe('live');
    expect((await lenient.lookup(b.successor, now())).standing).toBe('live');
  });
});

describe('a statement of rotations that fails', () => {
  it('fails each of them, and consumes none of their tokens', async () => {
    const { db, url, drop } = await freshPostgres();
    try {
      const tokens = refreshTokens(db, 0);
      const families = await Promise.all([1, 2, 3].map(() => startFamily(tokens)));
      // The instance that commits them loses its database before they reach it.
      const lost = await openPostgres({ url });
      const cut = refreshTokens(lost, 0);
      const refreshes = await Promise.all(families.map((f) => prepare(cut, f, f.token)));
      await lost.close();
      const results = await Promise.allSettled(refreshes.map((r) => r.commit()));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      // Each token is still the live one: the application's retry works.
      for (const family of families) expect((await tokens.lookup(family.token, now())).standing).toBe('live');
    } finally {
      await drop();
    }
  });
});

// Refresh-token families started before migration 014 kept their tokens as rows of oidc_models. After
// the upgrade they go on as they were, with the same rule, until they end: a refresh issued before the
// upgrade still works after it, and a replay is still a reuse. On PGlite and Postgres.
import { describe, expect, it } from 'vitest';
import { isRefreshTokenAdapter, type RefreshTokenAdapter } from '../../adapters/adapter.ts';
import { sqlAdapter } from '../../adapters/sql/adapter.ts';
import { familyTokenValue } from '../../adapters/refresh-family.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { freshSqlStoresPerFile } from '../support/databases.ts';
import { tokenId } from '../adapters/contract.ts';
import { familyOfRows, refreshTokenPayload as payload } from './helpers/refresh-families.ts';

const sqlStores = freshSqlStoresPerFile();

const now = () => Math.floor(Date.now() / 1000);

async function rotate(tokens: RefreshTokenAdapter, family: string, grantId: string, presented: string) {
  const id = familyTokenValue(family, tokenId());
  const { parent } = await tokens.lookup(presented, now());
  const won = await tokens.commitRotation({
    id: presented, parent, now: now(), successorExpiresAt: now() + 60,
    successor: { id, payload: payload(id, grantId, storageKey(presented)), expiresIn: 60 },
  });
  return { id, won };
}

describe.each(['pglite', 'postgres'] as const)('a family of rows, on %s', (backend) => {
  const db = () => sqlStores[backend]();
  const adapter = (grace: number) => {
    const tokens = sqlAdapter(db(), 'RefreshToken', { refreshTokenReuseGrace: grace });
    if (!isRefreshTokenAdapter(tokens)) throw new Error('expected the SQL refresh-token store');
    return tokens;
  };
  const rowsOf = async (grantId: string) =>
    Number((await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM oidc_models WHERE model = 'RefreshToken' AND grant_id = $1`, [grantId])).rows[0].n);

  it('rotates as before: the successor a row, the token used within the grace, older ones a reuse', async () => {
    const tokens = adapter(30);
    const { family, grantId, first } = await familyOfRows(db());
    expect((await tokens.lookup(first, now())).standing).toBe('live');

    const second = await rotate(tokens, family, grantId, first);
    expect(second.won).toBe(true);
    expect(await rowsOf(grantId)).toBe(2); // the family stays one of rows
    expect((await tokens.lookup(second.id, now())).standing).toBe('live');
    expect((await tokens.lookup(first, now())).standing).toBe('grace');

    const third = await rotate(tokens, family, grantId, second.id);
    expect(third.won).toBe(true);
    expect((await tokens.lookup(third.id, now())).standing).toBe('live');
    const replay = await tokens.lookup(first, now());
    expect(replay).toMatchObject({ standing: 'reuse', family: { grantId } });
    expect(replay.payload).toBeUndefined(); // its row went when the family moved on
    expect((await rotate(tokens, family, grantId, first)).won).toBe(false);
  });

  it('lets one of two siblings used at once move the head, never both', async () => {
    const { family, grantId, first } = await familyOfRows(db());
    const [a, b] = [await rotate(adapter(30), family, grantId, first), await rotate(adapter(30), family, grantId, first)];
    expect([a.won, b.won]).toEqual([true, true]);
    const strict = adapter(0);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => rotate(strict, family, grantId, i % 2 ? a.id : b.id)));
    expect(results.filter((r) => r.won)).toHaveLength(1);
  });

  it('ends with its grant: no row and no family left', async () => {
    const tokens = adapter(30);
    const { family, grantId, first } = await familyOfRows(db());
    await rotate(tokens, family, grantId, first);
    await tokens.revokeByGrantId(grantId);
    expect(await rowsOf(grantId)).toBe(0);
    expect((await tokens.lookup(first, now())).standing).toBe('unknown');
  });
});

// Migration 015 moves the refresh-token families kept as rows of oidc_models (the layout before migration
// 014) into their family's own row. A user signed in before the upgrade keeps working after it: the live
// token refreshes, the token rotated last is still within its grace, an older one is still a reuse; a
// family whose token cannot be placed ends (invalid_grant, a new sign-in), and no refresh-token row is
// left behind. On PGlite and Postgres.
import { afterEach, describe, expect, it } from 'vitest';
import { isRefreshTokenAdapter, type Payload } from '../../adapters/adapter.ts';
import { sqlAdapter } from '../../adapters/sql/adapter.ts';
import type { Database } from '../../adapters/sql/database.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { familyTokenValue, newFamilyId } from '../../adapters/refresh-family.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { tokenId } from '../adapters/contract.ts';
import { refreshTokenPayload } from './helpers/refresh-families.ts';

const now = () => Math.floor(Date.now() / 1000);

/** A database at migration 014, the last to know families of rows. */
async function databaseAt014(backend: 'pglite' | 'postgres'): Promise<{ db: Database; close(): Promise<void> }> {
  if (backend === 'pglite') {
    const db = await openPglite('memory://');
    await migrate(db, { upTo: 14 });
    return { db, close: () => db.close() };
  }
  const pg: FreshPostgres = await freshPostgres({ migrated: false });
  await migrate(pg.db, { upTo: 14 });
  return { db: pg.db, close: () => pg.drop() };
}

/** A refresh token as a row of oidc_models, as the service wrote it before migration 014 (no `exp` in it). */
async function tokenRow(db: Database, id: string, grantId: string, parent: string | null, expiresIn: number): Promise<void> {
  const { exp: _exp, ...payload }: Payload = refreshTokenPayload(id, grantId);
  delete payload.jti;
  await db.query(
    `INSERT INTO oidc_models (model, id_hash, payload, grant_id, parent, expires_at)
     VALUES ('RefreshToken', $1, $2::jsonb, $3, $4, now() + make_interval(secs => $5::int))`,
    [storageKey(id), JSON.stringify(payload), grantId, parent, expiresIn],
  );
}

async function familyRow(db: Database, family: string, grantId: string, head?: { parent: string; rotatedAt: number }): Promise<void> {
  await db.query(
    `INSERT INTO refresh_families (id_hash, grant_id, client_id, account_id, absolute_exp, expires_at, head_parent, head_rotated_at)
     VALUES ($1, $2, 'client', 'acc', $3, $3, $4, $5)`,
    [storageKey(family), grantId, now() + 86400, head?.parent ?? null, head?.rotatedAt ?? null],
  );
}

describe.each(['pglite', 'postgres'] as const)('families of rows moved into their rows, on %s', (backend) => {
  let opened: { db: Database; close(): Promise<void> } | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  it('keeps every placeable family working by the same rule, ends the others, and leaves no row', async () => {
    opened = await databaseAt014(backend);
    const { db } = opened;

    // A family rotated once: its first token is the head (rotated 5 s ago), its second the live one.
    const rotated = newFamilyId();
    const rotatedGrant = `g-${tokenId()}`;
    const first = familyTokenValue(rotated, tokenId());
    const second = familyTokenValue(rotated, tokenId());
    await familyRow(db, rotated, rotatedGrant, { parent: storageKey(first), rotatedAt: now() - 5 });
    await tokenRow(db, first, rotatedGrant, null, 3600);
    await tokenRow(db, second, rotatedGrant, storageKey(first), 3600);

    // A family never rotated, alone under its grant: its one token is live.
    const fresh = newFamilyId();
    const freshGrant = `g-${tokenId()}`;
    const only = familyTokenValue(fresh, tokenId());
    await familyRow(db, fresh, freshGrant);
    await tokenRow(db, only, freshGrant, null, 3600);

    // Two families never rotated under one grant: which row is whose cannot be told, so both end.
    const sharedGrant = `g-${tokenId()}`;
    const [left, right] = [newFamilyId(), newFamilyId()];
    const [leftToken, rightToken] = [familyTokenValue(left, tokenId()), familyTokenValue(right, tokenId())];
    await familyRow(db, left, sharedGrant);
    await familyRow(db, right, sharedGrant);
    await tokenRow(db, leftToken, sharedGrant, null, 3600);
    await tokenRow(db, rightToken, sharedGrant, null, 3600);

    expect(await migrate(db)).toContain(15);

    const tokens = sqlAdapter(db, 'RefreshToken', { refreshTokenReuseGrace: 30 });
    if (!isRefreshTokenAdapter(tokens)) throw new Error('expected the SQL refresh-token store');
    const live = await tokens.lookup(second, now());
    expect(live).toMatchObject({ standing: 'live', family: { grantId: rotatedGrant }, parent: storageKey(first) });
    expect(live.payload?.exp).toBeGreaterThan(now() + 3500); // the row's expiry, now in the payload
    expect((await tokens.lookup(first, now())).standing).toBe('grace');
    expect((await tokens.lookup(first, now() + 60)).standing).toBe('reuse');
    expect((await tokens.lookup(only, now())).standing).toBe('live');
    expect((await tokens.lookup(leftToken, now())).standing).toBe('unknown');
    expect((await tokens.lookup(rightToken, now())).standing).toBe('unknown');

    // The moved family rotates like any other: its successor is live, the token used a reuse after the grace.
    const third = familyTokenValue(rotated, tokenId());
    const won = await tokens.commitRotation({
      id: second,
      now: now(),
      successorExpiresAt: now() + 60,
      successor: { id: third, payload: refreshTokenPayload(third, rotatedGrant, storageKey(second)), expiresIn: 60 },
    });
    expect(won).toBe(true);
    expect((await tokens.lookup(third, now())).standing).toBe('live');
    expect((await tokens.lookup(first, now())).standing).toBe('reuse');

    const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM oidc_models WHERE model = 'RefreshToken'`);
    expect(rows.rows[0].n).toBe(0);
    const parentColumn = await db.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'oidc_models' AND column_name = 'parent'`,
    );
    expect(parentColumn.rowCount).toBe(0);
  });
});

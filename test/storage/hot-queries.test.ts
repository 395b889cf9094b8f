// The refresh path stays on selective indexes whatever the table sizes, and whether or not statistics
// were ever gathered (no ANALYZE here; the local Postgres runs without autovacuum): every statement a
// code exchange and a refresh send is recorded and EXPLAINed against a million stored records and a
// hundred thousand rotated families (a quarter of that on PGlite, which fills slowly), and none may scan
// a whole table, or the primary
// key's whole range of one model. And an authorization request's read of the newest consent of its
// user and application reads that one row, not every consent the pair was ever given.
import { beforeAll, describe, expect, it } from 'vitest';
import { isRefreshTokenAdapter, type Payload } from '../../adapters/adapter.ts';
import { sqlAdapter } from '../../adapters/sql/adapter.ts';
import type { Database } from '../../adapters/sql/database.ts';
import { openPostgres } from '../../adapters/sql/postgres.ts';
import { familyOf, familyTokenValue, newFamilyId } from '../../adapters/refresh-family.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { ConsentStore } from '../../src/consents/store.ts';
import { freshSqlStoresPerFile } from '../support/databases.ts';
import { tokenId } from '../adapters/contract.ts';
import { recording } from './helpers/recording.ts';

const sqlStores = freshSqlStoresPerFile();

/** Records, rotated families and consents, as months of use leave them. */
async function fill(db: Database, tokens: number): Promise<void> {
  await db.query(
    `INSERT INTO accounts (id, email, username, first_name, password_hash) VALUES ('acc', 'acc@example.org', 'acc', 'A', 'x')`,
  );
  for (let from = 1; from <= tokens; from += 100_000) {
    await db.query(
      `INSERT INTO oidc_models (model, id_hash, payload, grant_id, expires_at, consumed_at)
       SELECT CASE WHEN g % 10 = 0 THEN 'Grant' ELSE 'Session' END, 'h' || g, '{}'::jsonb, 'grant' || (g / 10), now() + interval '30 days',
              CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
       FROM generate_series($1::int, $2::int) AS g`,
      [from, Math.min(tokens, from + 99_999)],
    );
  }
  await db.query(
    `INSERT INTO refresh_families (id_hash, grant_id, client_id, account_id, head_parent, head_rotated_at, absolute_exp, expires_at, head, live)
     SELECT 'f' || g, 'grant' || g, 'client', 'acc', 'r' || (g * 10 - 1), 0, 4102444800, 4102444800,
            '{"kind":"RefreshToken"}'::jsonb, jsonb_build_object('r' || (g * 10), '{"kind":"RefreshToken"}'::jsonb)
     FROM generate_series(1, $1::int / 10) AS g`,
    [tokens],
  );
  await db.query(
    `INSERT INTO consents (account_id, client_id, grant_id, scopes, expires_at)
     SELECT 'acc', 'client' || g, 'grant' || g, '["openid"]'::jsonb, now() + interval '30 days' FROM generate_series(1, $1::int / 10) AS g`,
    [tokens],
  );
  // And one application the user signed in to with prompt=consent every time: a consent per grant.
  await db.query(
    `INSERT INTO consents (account_id, client_id, grant_id, scopes, expires_at, created_at)
     SELECT 'acc', 'busy-client', 'busy-grant' || g, '["openid"]'::jsonb, now() + interval '30 days', now() - make_interval(secs => g)
     FROM generate_series(1, 20000) AS g`,
  );
}

const quoted = (value: unknown) => `'${String(value).replace(/'/g, "''")}'`;

/** `sql` with its parameters written in as literals, for EXPLAIN. */
function inline(sql: string, params: unknown[]): string {
  return params.reduceRight<string>((text, value, i) => {
    const literal =
      value === null || value === undefined
        ? 'NULL'
        : typeof value === 'number'
          ? String(value)
          : Array.isArray(value)
            ? `ARRAY[${value.map(quoted).join(', ')}]`
            : quoted(value);
    return text.replace(new RegExp(`\\$${i + 1}(?!\\d)`, 'g'), literal);
  }, sql);
}

const now = () => Math.floor(Date.now() / 1000);

describe.each([
  ['postgres', 1_000_000],
  ['pglite', 250_000],
] as const)('the refresh path on %s with %i stored records', (kind, size) => {
  beforeAll(async () => {
    if (kind === 'pglite') return fill(sqlStores.pglite(), size);
    // Through a pool of its own without the service's five-second bound on a statement: a busy host
    // may take longer than that to write and index a hundred thousand rows, and the fill is only the
    // setting of the test, not what it checks. The statements under test keep the bound.
    const unbounded = await openPostgres({ url: sqlStores.postgresUrl(), max: 1, statementTimeoutMs: 0 });
    try {
      await fill(unbounded, size);
    } finally {
      await unbounded.close();
    }
  }, 180_000);

  it('runs every statement on an index', async () => {
    const db = sqlStores[kind]();
    const { db: recorded, statements } = recording(db);
    const options = { refreshTokenReuseGrace: 30 };
    const tokens = sqlAdapter(recorded, 'RefreshToken', options);
    const grants = sqlAdapter(recorded, 'Grant', options);
    const consents = new ConsentStore(recorded);
    if (!isRefreshTokenAdapter(tokens)) throw new Error('expected the SQL refresh-token store');

    // A code exchange and three refreshes, as the engine and our wrappers drive the store.
    const grantId = `grant-${tokenId()}`;
    const payload = (extra: Partial<Payload>): Payload => ({
      kind: 'RefreshToken',
      grantId,
      clientId: 'client',
      accountId: 'acc',
      iat: now(),
      exp: now() + 3600,
      iiat: now(),
      ...extra,
    });
    await grants.upsert(grantId, { kind: 'Grant', accountId: 'acc', clientId: 'client', exp: now() + 3600 }, 3600);
    await consents.record({ accountId: 'acc', clientId: 'client-new', grantId, scopes: ['openid'] });
    const family = newFamilyId();
    let current = familyTokenValue(family, tokenId());
    await tokens.upsert(current, payload({}), 3600);
    for (let i = 0; i < 3; i += 1) {
      const found = await tokens.lookup(current, now());
      expect(found.standing).toBe('live');
      await grants.find(grantId);
      await grants.upsert(grantId, { kind: 'Grant', accountId: 'acc', clientId: 'client', exp: now() + 3600 }, 3600);
      await consents.follow(grantId, 3600);
      // The successor is written by the rotation's own statement, as a refresh does it.
      const next = familyTokenValue(family, tokenId());
      const successor = { id: next, payload: payload({ parent: storageKey(current) }), expiresIn: 3600 };
      expect(await tokens.commitRotation({ id: current, now: now(), successorExpiresAt: now() + 3600, successor })).toBe(true);
      current = next;
    }
    // Refreshes that finish together commit in one statement (adapters/sql/rotation-batches.ts): on an index too.
    const together = await Promise.all(
      [1, 2, 3].map(async () => {
        const first = familyTokenValue(newFamilyId(), tokenId());
        await tokens.upsert(first, payload({}), 3600);
        await tokens.lookup(first, now());
        return first;
      }),
    );
    const won = await Promise.all(
      together.map((first) => {
        const next = familyTokenValue(familyOf(first)!, tokenId());
        const successor = { id: next, payload: payload({ parent: storageKey(first) }), expiresIn: 3600 };
        return tokens.commitRotation({ id: first, now: now(), successorExpiresAt: now() + 3600, successor });
      }),
    );
    expect(won).toEqual([true, true, true]);
    expect(statements.filter((s) => s.sql.includes('jsonb_to_recordset'))).toHaveLength(1);
    await tokens.revokeByGrantId(grantId);
    await consents.forget({ grantId });

    const plans = [];
    for (const { sql, params } of statements) {
      const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${inline(sql, params)}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      plans.push(plan);
      expect(plan, `${sql}\n${plan}`).not.toMatch(/Seq Scan on (oidc_models|refresh_families|consents)/);
      // Nor the primary key's whole range of one model (its first column alone): as slow, index or not.
      expect(plan, `${sql}\n${plan}`).not.toMatch(/Index Cond: \(model = '[^']*'::text\)$/m);
    }
    console.log(`[${kind}] ${statements.length} statements of the refresh path, ${size} stored records: no sequential scan`);
  });

  it('reads the newest consent of a pair with twenty thousand without sorting them', async () => {
    const db = sqlStores[kind]();
    // Once the table has statistics: without any, the planner takes every pair for a single row.
    await db.query('ANALYZE consents');
    const { db: recorded, statements } = recording(db);
    expect((await new ConsentStore(recorded).latest('acc', 'busy-client'))?.grantId).toBe('busy-grant1');
    const [{ sql, params }] = statements;
    const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${inline(sql, params)}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan, plan).toMatch(/consents_latest_idx/);
    expect(plan, plan).not.toMatch(/Sort Key|Seq Scan/);
  });
});

// The durable record of codes redeemed and tokens revoked (adapters/sql/revocations.ts), on Postgres and on
// the embedded store: a code redeems once, a revocation reaches every record open on the store (at once
// through NOTIFY, or at start), and the housekeeping sweep deletes what has expired, keeping the rest.
import { describe, expect, it } from 'vitest';
import { openRevocationRecord, type RevocationRecord } from '../../adapters/sql/revocations.ts';
import { sweepExpired } from '../../adapters/sql/sweep.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { freshSqlStoresPerFile } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';

const stores = freshSqlStoresPerFile();
const epoch = () => Math.floor(Date.now() / 1000);
let counter = 0;
const unique = (what: string) => `${what}-${++counter}-${Math.random().toString(36).slice(2)}`;

async function withRecords<T>(
  count: number,
  db: Parameters<typeof openRevocationRecord>[0],
  fn: (...records: RevocationRecord[]) => Promise<T>,
) {
  const records: RevocationRecord[] = [];
  try {
    for (let i = 0; i < count; i++) records.push(await openRevocationRecord(db));
    return await fn(...records);
  } finally {
    for (const record of records) await record.close();
  }
}

describe.each(['postgres', 'pglite'] as const)('the durable record on %s', (kind) => {
  it('redeems a code once; a redemption taken back leaves it usable', async () => {
    await withRecords(1, stores[kind](), async (record) => {
      const code = unique('code');
      expect(await record.redeemCode(code, epoch() + 60)).toBe(true);
      expect(await record.redeemCode(code, epoch() + 60)).toBe(false);
      await record.forgetCode(code);
      expect(await record.redeemCode(code, epoch() + 60)).toBe(true);
    });
  });

  it('tells every record on the store of a revocation, and a record opened later too', async () => {
    await withRecords(2, stores[kind](), async (here, elsewhere) => {
      const token = unique('token');
      const grantId = unique('grant');
      const now = epoch();
      await here.revoke([
        { kind: 'token', id: token, expiresAt: now + 3600 },
        { kind: 'grant', grantId, revokedAt: now, expiresAt: now + 3600 },
      ]);
      for (const record of [here, elsewhere]) {
        await eventually(() => record.revokedToken(token), 'the revocation known to every record');
        // Issued up to the revocation: refused; after it: accepted. Another grant: untouched.
        expect(record.revokedWithGrant({ grantId, iat: now - 5 })).toBe(true);
        expect(record.revokedWithGrant({ grantId, iat: now })).toBe(true);
        expect(record.revokedWithGrant({ grantId, iat: now + 1 })).toBe(false);
        expect(record.revokedWithGrant({ grantId: unique('grant'), iat: now - 5 })).toBe(false);
        expect(record.revokedToken(unique('token'))).toBe(false);
      }
      await withRecords(1, stores[kind](), async (later) => {
        expect(later.revokedToken(token)).toBe(true);
        expect(later.revokedWithGrant({ grantId, iat: now })).toBe(true);
      });
    });
  });

  it('is swept once what it ends has expired, and an expired revocation is not loaded', async () => {
    const db = stores[kind]();
    await withRecords(1, db, async (record) => {
      const [liveToken, liveCode] = [unique('token'), unique('code')];
      await record.revoke([{ kind: 'token', id: liveToken, expiresAt: epoch() + 3600 }]);
      await record.redeemCode(liveCode, epoch() + 60);
      const [oldToken, oldCode] = [unique('token'), unique('code')];
      await db.query(
        `INSERT INTO revoked_tokens (kind, id_hash, revoked_at, expires_at) VALUES ('token', $1, 0, now() - interval '1 second')`,
        [storageKey(oldToken)],
      );
      await db.query(`INSERT INTO redeemed_codes (id_hash, expires_at) VALUES ($1, now() - interval '1 second')`, [storageKey(oldCode)]);
      await withRecords(1, db, async (later) => expect(later.revokedToken(oldToken)).toBe(false));

      expect(await sweepExpired(db)).toBeGreaterThanOrEqual(2);
      const left = async (table: string, id: string) =>
        (await db.query(`SELECT 1 FROM ${table} WHERE id_hash = $1`, [storageKey(id)])).rowCount;
      expect(await left('revoked_tokens', oldToken)).toBe(0);
      expect(await left('redeemed_codes', oldCode)).toBe(0);
      expect(await left('revoked_tokens', liveToken)).toBe(1);
      expect(await left('redeemed_codes', liveCode)).toBe(1);
    });
  });
});

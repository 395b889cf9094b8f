// Storage bounded by what is live: a family keeps, in its own row, its live tokens and the token rotated
// last (for the grace), and recognises every other token of it without keeping it; consents expire with
// their grant and are swept; a revoked grant leaves nothing behind. On PGlite and Postgres.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../../adapters/sql/sweep.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { ageGrant } from '../support/grant-change.ts';
import type { TestService } from '../support/service.ts';
import { signedInApp, type SignedInApp } from '../refresh/support.ts';
import { servicesOnEachStore } from './helpers/instance.ts';

const FAMILIES = 3;
const REFRESHES = 40;

let stores: Awaited<ReturnType<typeof servicesOnEachStore>>;
let services: Record<string, TestService>;
beforeAll(async () => {
  stores = await servicesOnEachStore({ redis: false });
  services = stores.services;
});
afterAll(() => stores?.stop());

describe.each(['pglite', 'postgres'])('rows on %s', (backend) => {
  const count = async (sql: string, params: unknown[]) =>
    Number((await services[backend].service.context.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0].n);
  const grantOf = async (app: SignedInApp) =>
    (await services[backend].service.context.consents.latest(app.user.id, app.client.clientId))!.grantId;

  it('stay proportional to live families, not to refreshes', async () => {
    const app = await signedInApp(services[backend]);
    for (let f = 0; f < FAMILIES; f += 1) {
      let token = (await app.tokens()).refresh_token;
      for (let i = 0; i < REFRESHES; i += 1) {
        // Now and then the application refreshes in parallel (two siblings within the grace).
        const answers = await Promise.all(i % 10 === 0 ? [app.refresh(token), app.refresh(token)] : [app.refresh(token)]);
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
        token = String(answers[0].json.refresh_token);
      }
    }
    const grantId = await grantOf(app);
    // The tokens a family keeps: its live one(s), and the head (the token rotated last, for the grace).
    const tokens =
      (await count('refresh_families f, jsonb_object_keys(f.live) AS k WHERE f.grant_id = $1', [grantId])) +
      (await count('refresh_families WHERE grant_id = $1 AND head IS NOT NULL', [grantId]));
    const families = await count('refresh_families WHERE grant_id = $1', [grantId]);
    console.log(
      `[${backend}] after ${FAMILIES * REFRESHES} refreshes in ${FAMILIES} families: ${tokens} refresh tokens kept, ${families} family rows`,
    );
    expect(families).toBe(FAMILIES);
    expect(await count(`oidc_models WHERE model = 'RefreshToken'`, [])).toBe(0);
    // Per family: the token rotated last and its live successor (a sibling too, within the grace).
    expect(tokens).toBeGreaterThanOrEqual(2 * FAMILIES);
    expect(tokens).toBeLessThanOrEqual(3 * FAMILIES);
    expect(await count('consents WHERE client_id = $1', [app.client.clientId])).toBe(1);
  });

  it('leave nothing of a grant revoked by a reuse: no token, family or consent', async () => {
    const app = await signedInApp(services[backend]);
    const first = await app.tokens();
    const grantId = await grantOf(app);
    expect((await app.refresh(String((await app.refresh(first.refresh_token)).json.refresh_token))).status).toBe(200);
    expect((await app.refresh(first.refresh_token)).json.error).toBe('invalid_grant');
    expect(await count('oidc_models WHERE grant_id = $1 OR id_hash = $2', [grantId, storageKey(grantId)])).toBe(0);
    expect(await count('refresh_families WHERE grant_id = $1', [grantId])).toBe(0);
    expect(await count('consents WHERE grant_id = $1', [grantId])).toBe(0);
  });

  it('keep a consent exactly as long as its grant, extended with it, and sweep it after', async () => {
    const { db } = services[backend].service.context;
    const app = await signedInApp(services[backend]);
    const { refresh_token: token } = await app.tokens();
    const grantId = await grantOf(app);
    const expiries = async () =>
      (
        await db.query<{ grant: number; consent: number }>(
          `SELECT (SELECT extract(epoch FROM expires_at)::int FROM oidc_models WHERE model = 'Grant' AND id_hash = $2) AS grant,
                  (SELECT extract(epoch FROM expires_at)::int FROM consents WHERE grant_id = $1) AS consent`,
          [grantId, storageKey(grantId)],
        )
      ).rows[0];
    const recorded = await expiries();
    expect(Math.abs(recorded.consent - recorded.grant)).toBeLessThanOrEqual(1);

    // The grant looks consented long ago (a day left); a refresh extends it, and its consent with it.
    await ageGrant(db, services[backend].service.context.provider, grantId);
    await db.query(`UPDATE consents SET expires_at = now() + interval '1 day' WHERE grant_id = $1`, [grantId]);
    expect((await app.refresh(token)).status).toBe(200);
    const extended = await expiries();
    expect(extended.consent - Math.floor(Date.now() / 1000)).toBeGreaterThan(20 * 86400);
    expect(Math.abs(extended.consent - extended.grant)).toBeLessThanOrEqual(1);

    // Expired, the consent and the family go with the sweep.
    await db.query(`UPDATE consents SET expires_at = now() - interval '1 minute' WHERE grant_id = $1`, [grantId]);
    await db.query(`UPDATE refresh_families SET expires_at = $2 WHERE grant_id = $1`, [grantId, Math.floor(Date.now() / 1000) - 60]);
    await sweepExpired(db);
    expect(await count('consents WHERE grant_id = $1', [grantId])).toBe(0);
    expect(await count('refresh_families WHERE grant_id = $1', [grantId])).toBe(0);
  });
});

// A refresh token never outlives its grant: the grant lives at least as long as refresh tokens, and
// every use of the application (a sign-in, a refresh) extends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { refreshGrant, signIn } from '../support/flow.ts';
import { ageGrant } from '../support/grant-change.ts';
import { storageKey } from '../../adapters/token-key.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ ttl: { session: 14 * 86400, refreshToken: 30 * 86400 } });
});
afterAll(() => svc.stop());

/** Seconds left to the grant (stored under the hash of its own id). */
async function grantSecondsLeft(grantId: string): Promise<number> {
  const res = await svc.service.context.db.query<{ left: number }>(
    `SELECT extract(epoch FROM expires_at - now())::float AS left FROM oidc_models WHERE model = 'Grant' AND id_hash = $1`,
    [storageKey(grantId)],
  );
  return Number(res.rows[0].left);
}

/** Seconds left to each live refresh token of the grant (its families keep them, with their expiry). */
async function refreshSecondsLeft(grantId: string): Promise<number[]> {
  const res = await svc.service.context.db.query<{ left: number }>(
    `SELECT (token.value ->> 'exp')::float - extract(epoch FROM now())::float AS left
       FROM refresh_families f, jsonb_each(f.live) AS token WHERE f.grant_id = $1`,
    [grantId],
  );
  return res.rows.map((r) => Number(r.left));
}

async function grantOf(accountId: string, clientId: string): Promise<string> {
  return (await svc.service.context.consents.latest(accountId, clientId))!.grantId;
}

/** Makes a grant look consented long ago (one day left), once the service reads it so. */
const age = (grantId: string) => ageGrant(svc.service.context.db, svc.service.context.provider, grantId);

describe('grant lifetime', () => {
  it('outlives the refresh tokens issued under it', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    await signIn(svc.url, await relyingParty(svc.url, client), user);
    const grantId = await grantOf(user.id, client.clientId);
    const grantLeft = await grantSecondsLeft(grantId);
    const refreshLefts = await refreshSecondsLeft(grantId);
    expect(grantLeft).toBeGreaterThan(29 * 86400);
    expect(refreshLefts).toHaveLength(1);
    expect(refreshLefts[0]).toBeLessThanOrEqual(grantLeft + 1);
  });

  it('is extended by a returning sign-in, and by a refresh', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const first = await signIn(svc.url, rp, user);
    const grantId = await grantOf(user.id, client.clientId);

    await age(grantId);
    const again = await signIn(svc.url, rp, user, { browser: first.browser });
    expect(again.pages.some((p) => /\/consent"/.test(p.html))).toBe(false);
    expect(await grantSecondsLeft(grantId)).toBeGreaterThan(29 * 86400);

    await age(grantId);
    const refreshed = await refreshGrant(svc.url, client, again.tokens.refresh_token!);
    expect(refreshed.status).toBe(200);
    const grantLeft = await grantSecondsLeft(grantId);
    expect(grantLeft).toBeGreaterThan(29 * 86400);
    const refreshLefts = await refreshSecondsLeft(grantId);
    expect(refreshLefts.length).toBeGreaterThan(0);
    expect(Math.max(...refreshLefts)).toBeLessThanOrEqual(grantLeft + 1);
  });
});

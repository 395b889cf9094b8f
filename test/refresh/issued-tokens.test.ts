// A refresh token is remembered by the instance that issued it (src/provider/tokens/issued-refresh-tokens.ts):
// its next use there reads no Postgres row for it, and what is remembered never lets a token through
// that the family no longer holds. Two instances share one Postgres and one Redis, as behind a load
// balancer; the application signs in on the first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuedRefreshTokens } from '../../src/provider/tokens/issued-refresh-tokens.ts';
import { postForm, refreshGrant, userinfo } from '../support/flow.ts';
import { createClient, createUser, twoInstances, type Instance, type InstancePair } from '../storage/helpers/instance.ts';
import { signedInApp, type SignedInApp } from './support.ts';

let pair: InstancePair | undefined;
let first: Instance;
let second: Instance;

beforeAll(async () => {
  pair = await twoInstances({ log: { level: 'warn' } });
  ({ first, second } = pair);
});
afterAll(() => pair?.stop());

/** An application signed in on the first instance, whose tokens the first issues. */
const appOnFirst = (): Promise<SignedInApp> =>
  signedInApp({ url: first.url, createUser: () => createUser(first.service), createClient: () => createClient(first.service) });

/** The SQL statements an instance sends while `run` runs. */
async function statementsOf(instance: Instance, run: () => Promise<unknown>): Promise<string[]> {
  const { db } = instance.service.context;
  const query = db.query;
  const sent: string[] = [];
  db.query = (sql, params) => {
    sent.push(sql);
    return query.call(db, sql, params) as never;
  };
  try {
    await run();
  } finally {
    db.query = query;
  }
  return sent;
}

const familyReads = (statements: string[]) =>
  statements.filter((sql) => /SELECT\b[\s\S]*\bFROM refresh_families f WHERE f\.id_hash/.test(sql));
const rotations = (statements: string[]) => statements.filter((sql) => /UPDATE refresh_families/.test(sql));

describe('refresh tokens remembered by the instance that issued them', () => {
  it('are refreshed there with the rotation alone, and elsewhere after a read of their family', async () => {
    const app = await appOnFirst();
    const { refresh_token: issuedHere } = await app.tokens();

    let next: Awaited<ReturnType<typeof refreshGrant>> | undefined;
    const here = await statementsOf(first, async () => {
      next = await app.refresh(issuedHere);
    });
    expect(next?.status).toBe(200);
    expect({ reads: familyReads(here).length, rotations: rotations(here).length }).toEqual({ reads: 0, rotations: 1 });

    // The second instance never saw the token: it reads the family first, then rotates.
    const elsewhere = await statementsOf(second, async () => {
      next = await refreshGrant(second.url, app.client, String(next?.json.refresh_token));
    });
    expect(next?.status).toBe(200);
    expect({ reads: familyReads(elsewhere).length, rotations: rotations(elsewhere).length }).toEqual({ reads: 1, rotations: 1 });
  });

  it('forget a token once used: presented again, it is judged by its family before anything is issued', async () => {
    const app = await appOnFirst();
    const { refresh_token: token } = await app.tokens();
    expect((await app.refresh(token)).status).toBe(200);

    let again: Awaited<ReturnType<typeof refreshGrant>> | undefined;
    const statements = await statementsOf(first, async () => {
      again = await app.refresh(token); // the application refreshing in parallel, within the grace
    });
    expect(again?.status).toBe(200);
    expect({ reads: familyReads(statements).length, rotations: rotations(statements).length }).toEqual({ reads: 1, rotations: 1 });
  });

  it('count a remembered token retired on another instance as the reuse it is: the grant is revoked', async () => {
    const app = await appOnFirst();
    const { refresh_token: rt1 } = await app.tokens(); // remembered by the first
    const rt2 = await refreshGrant(second.url, app.client, rt1); // the application goes on with the second
    const rt3 = await refreshGrant(second.url, app.client, String(rt2.json.refresh_token));
    expect([rt2.status, rt3.status]).toEqual([200, 200]);

    const replay = await app.refresh(rt1); // a stolen RT1, presented where it is remembered
    expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant']);
    expect((await refreshGrant(second.url, app.client, String(rt3.json.refresh_token))).json.error).toBe('invalid_grant');
    expect((await userinfo(first.url, String(rt3.json.access_token))).status).toBe(401);
    const { rows } = await first.service.context.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM refresh_families WHERE client_id = $1',
      [app.client.clientId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuse a remembered token revoked on another instance', async () => {
    const app = await appOnFirst();
    const { refresh_token: token, access_token: accessToken } = await app.tokens();
    const revoked = await postForm(`${second.url}/oauth/token/revoke`, {
      token,
      client_id: app.client.clientId,
      client_secret: app.client.clientSecret,
    });
    expect(revoked.status).toBe(200);

    const refreshed = await app.refresh(token);
    expect([refreshed.status, refreshed.json.error]).toEqual([400, 'invalid_grant']);
    expect((await app.userinfo(accessToken)).status).toBe(401);
  });
});

describe('the memory of issued tokens', () => {
  const payload = (exp: number) => ({ kind: 'RefreshToken', grantId: 'g', exp });

  it('forgets a token after its time, or at its expiry if sooner', () => {
    const issued = new IssuedRefreshTokens(600);
    issued.remember('long', payload(10_000), 1000);
    issued.remember('short', payload(1100), 1000);
    expect(issued.recall('long', 1599)).toEqual(payload(10_000));
    expect(issued.recall('long', 1600)).toBeUndefined();
    expect(issued.recall('short', 1099)).toEqual(payload(1100));
    expect(issued.recall('short', 1100)).toBeUndefined();
  });

  it('keeps at most its number of tokens, the oldest leaving first', () => {
    const issued = new IssuedRefreshTokens(600, 3);
    for (const key of ['a', 'b', 'c', 'd']) issued.remember(key, payload(10_000), 1000);
    expect(issued.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((key) => issued.recall(key, 1001) !== undefined)).toEqual([false, true, true, true]);
  });

  it('hands out copies: what the engine changes in a payload is not remembered', () => {
    const issued = new IssuedRefreshTokens(600);
    issued.remember('k', { ...payload(10_000), claims: { userinfo: {} } }, 1000);
    const given = issued.recall('k', 1001)!;
    (given.claims as Record<string, unknown>).userinfo = 'changed';
    expect(issued.recall('k', 1001)?.claims).toEqual({ userinfo: {} });
  });
});

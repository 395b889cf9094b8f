// Grants are kept in memory for a few seconds on each instance (src/grants/grant-cache.ts). Two
// instances on one Postgres and one Redis: a grant revoked through one fails at once on the other,
// which had just used it; a grant changed through one is read anew on the other long before the
// cache's own limit (10 s), through the NOTIFY of migration 011.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payload } from '../../adapters/adapter.ts';
import { postForm, refreshGrant, signIn, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { createClient, createUser, twoInstances, type Instance, type InstancePair } from './helpers/instance.ts';

let pair: InstancePair | undefined;
let first: Instance;
let second: Instance;

beforeAll(async () => {
  pair = await twoInstances();
  ({ first, second } = pair);
});
afterAll(() => pair?.stop());

async function signedInOnFirst() {
  const client = await createClient(first.service);
  const user = await createUser(first.service);
  const { tokens } = await signIn(first.url, await relyingParty(first.url, client), user, {
    params: { scope: 'openid email profile offline_access', prompt: 'consent' },
  });
  const grantId = String((await first.service.context.adapters('AccessToken').find(tokens.access_token))?.grantId);
  return { client, tokens, grantId };
}

describe('grants kept in memory on several instances', () => {
  it('a grant revoked through one instance fails at once on the other, which had it in memory', async () => {
    const { client, tokens } = await signedInOnFirst();
    const refreshToken = String(tokens.refresh_token);
    // The second instance uses the grant: it is now in its memory.
    expect((await userinfo(second.url, tokens.access_token)).status).toBe(200);
    const refreshed = await refreshGrant(second.url, client, refreshToken);
    expect(refreshed.status).toBe(200);

    const revoked = await postForm(`${first.url}/oauth/token/revoke`, {
      token: String(refreshed.json.refresh_token),
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(revoked.status).toBe(200);
    // No waiting: every token of the grant went with it.
    expect((await userinfo(second.url, String(refreshed.json.access_token))).status).toBe(401);
    const again = await refreshGrant(second.url, client, String(refreshed.json.refresh_token));
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('invalid_grant');
  });

  it('a grant changed through one instance is read anew on the other within moments, not after the cache limit', async () => {
    const { grantId } = await signedInOnFirst();
    const onSecond = second.service.context.adapters('Grant');
    const before = (await onSecond.find(grantId)) as Payload & { openid?: { scope?: string } };
    expect(before.openid?.scope).toContain('profile');

    // The consent narrowed, saved by the first instance (as a new consent screen would).
    const narrowed = { ...before, openid: { ...before.openid, scope: 'openid email' } };
    const ttl = Math.max(1, Number(before.exp) - Math.floor(Date.now() / 1000));
    await first.service.context.adapters('Grant').upsert(grantId, narrowed, ttl);

    const started = Date.now();
    let seen = before;
    while (Date.now() - started < 3000) {
      seen = (await onSecond.find(grantId)) as typeof before;
      if (seen.openid?.scope === 'openid email') break;
      await sleep(50);
    }
    expect(seen.openid?.scope).toBe('openid email');
  });
});

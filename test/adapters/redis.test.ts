import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TTL_SECONDS, redisAdapter } from '../../adapters/redis/adapter.ts';
import { freshRedis, type FreshRedis } from '../support/databases.ts';
import { describeAdapterContract, tokenId } from './contract.ts';
import { expectGrantSetOfLiveRecords } from './grant-sets.ts';
import { storageKey } from '../../adapters/token-key.ts';

describeAdapterContract('Redis', async () => {
  const fresh = await freshRedis();
  return {
    adapter: (model) => redisAdapter(fresh.redis, model, { keyPrefix: fresh.keyPrefix }),
    // Every key and every value under the prefix.
    dump: async () => JSON.stringify(await fresh.dump()),
    close: fresh.cleanup,
  };
});

describe('Redis adapter specifics', () => {
  let fresh: FreshRedis;
  const adapter = (model: string) => redisAdapter(fresh.redis, model, { keyPrefix: fresh.keyPrefix });
  const ttlOf = (key: string) => fresh.redis.ttl(key);

  beforeAll(async () => {
    fresh = await freshRedis();
  });
  afterAll(async () => {
    await fresh?.cleanup();
  });

  it('lays keys out as prefix + model + hash of the id, with the uid index and grant set beside them', async () => {
    const session = tokenId();
    const token = tokenId();
    await adapter('Session').upsert(session, { jti: session, uid: 'layout-uid', kind: 'Session' }, 60);
    await adapter('AccessToken').upsert(token, { jti: token, kind: 'AccessToken', grantId: 'layout-grant' }, 60);
    const p = fresh.keyPrefix;
    expect(await fresh.redis.hgetall(`${p}Session:${storageKey(session)}`)).toHaveProperty('payload');
    expect(await fresh.redis.get(`${p}Session:uid:layout-uid`)).toBe(storageKey(session));
    expect(await fresh.redis.smembers(`${p}grant:layout-grant`)).toEqual([`${p}AccessToken:${storageKey(token)}`]);
  });

  it('gives every key a TTL, even when the engine passes none', async () => {
    const id = tokenId();
    await adapter('AccessToken').upsert(id, { jti: id, kind: 'AccessToken', grantId: 'no-ttl-grant', uid: 'no-ttl-uid' }, undefined);
    const keys = Object.keys(await fresh.dump());
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const ttl = await ttlOf(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(MAX_TTL_SECONDS);
    }
  });

  it('lists in a grant set the records that still exist, not every token the grant was ever given', async () => {
    await expectGrantSetOfLiveRecords(adapter('AccessToken'), fresh.redis, fresh.keyPrefix, 'busy-grant');
  });

  it('keeps a grant set as long as its longest-lived member, never shortening it', async () => {
    const grantKey = `${fresh.keyPrefix}grant:ttl-grant`;
    const [long, short] = [tokenId(), tokenId()];
    await adapter('AccessToken').upsert(long, { kind: 'AccessToken', grantId: 'ttl-grant' }, 3600);
    await adapter('AuthorizationCode').upsert(short, { kind: 'AuthorizationCode', grantId: 'ttl-grant' }, 60);
    expect(await ttlOf(grantKey)).toBeGreaterThan(3500);
    await adapter('AccessToken').revokeByGrantId('ttl-grant');
    expect(await fresh.redis.exists(grantKey)).toBe(0);
  });

  it('consume leaves the TTL of the record as it was', async () => {
    const id = tokenId();
    const key = `${fresh.keyPrefix}AuthorizationCode:${storageKey(id)}`;
    await adapter('AuthorizationCode').upsert(id, { kind: 'AuthorizationCode' }, 600);
    await adapter('AuthorizationCode').consume(id);
    const ttl = await ttlOf(key);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it('does not resurrect an expired code as a key without TTL when consumed late', async () => {
    const id = tokenId();
    await expect(adapter('AuthorizationCode').consume(id)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await fresh.redis.exists(`${fresh.keyPrefix}AuthorizationCode:${storageKey(id)}`)).toBe(0);
  });

  it('leaves Interactions out of grant sets: they reuse a grant, they are not issued under it', async () => {
    const id = tokenId();
    await adapter('Interaction').upsert(id, { kind: 'Interaction', jti: id, grantId: 'interaction-grant' }, 60);
    await adapter('AccessToken').revokeByGrantId('interaction-grant');
    expect(await adapter('Interaction').find(id)).toBeDefined();
  });

  it('finds a session by uid in one round trip, on a client that has its own ioredis keyPrefix too', async () => {
    const prefixed = fresh.redis.duplicate({ keyPrefix: `${fresh.keyPrefix}client:` });
    prefixed.on('error', () => {});
    await prefixed.connect();
    const monitor = await fresh.redis.monitor();
    try {
      const sessions = redisAdapter(prefixed, 'Session', { keyPrefix: 'app:' });
      const id = tokenId();
      // Names of this run only: MONITOR sees every client of the server, other test files' included.
      const uid = `one-trip-${tokenId()}`;
      const marker = `one-trip-done-${tokenId()}`;
      await sessions.upsert(id, { jti: id, uid, kind: 'Session', accountId: 'account-1' }, 60);
      // What the client sends naming the uid (a script's own commands come from "lua").
      const sent: string[] = [];
      let done!: () => void;
      const seen = new Promise<void>((resolve) => (done = resolve));
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        if (args[1] === marker) done();
        else if (source !== 'lua' && args.some((arg) => arg.includes(uid))) sent.push(args[0]!.toLowerCase());
      });
      expect(await sessions.findByUid(uid)).toMatchObject({ uid, accountId: 'account-1' });
      await sessions.destroy(id);
      expect(await sessions.findByUid(uid)).toBeUndefined();
      await fresh.redis.echo(marker);
      await seen;
      expect(sent).not.toContain('get');
      expect(sent.filter((command) => command === 'evalsha' || command === 'eval').length).toBeGreaterThanOrEqual(2);
    } finally {
      monitor.disconnect();
      await prefixed.quit();
    }
  });

  it('revokes a grant on a client that has its own ioredis keyPrefix', async () => {
    const prefixed = fresh.redis.duplicate({ keyPrefix: `${fresh.keyPrefix}client:` });
    prefixed.on('error', () => {});
    await prefixed.connect(); // duplicate() keeps lazyConnect and the disabled offline queue
    try {
      const tokens = redisAdapter(prefixed, 'AccessToken', { keyPrefix: 'app:' });
      const id = tokenId();
      await tokens.upsert(id, { kind: 'AccessToken', grantId: 'prefixed-grant' }, 60);
      expect(await fresh.redis.exists(`${fresh.keyPrefix}client:app:AccessToken:${storageKey(id)}`)).toBe(1);
      await tokens.revokeByGrantId('prefixed-grant');
      expect(await tokens.find(id)).toBeUndefined();
    } finally {
      await prefixed.quit();
    }
  });
});

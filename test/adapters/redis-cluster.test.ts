// The Redis adapter on a real three-node Redis Cluster: the whole adapter contract (single-use
// redemption under concurrency included), and revocation of a grant whose records sit on several nodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from 'ioredis';
import { redisAdapter } from '../../adapters/redis/adapter.ts';
import { pingRedis } from '../../adapters/storage.ts';
import { closeRedis, clusterNode, openRedis, type RedisClient } from '../../adapters/redis/connect.ts';
import { parseConfig } from '../../src/config/load.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { startLocalCluster, type LocalCluster } from '../storage/helpers/redis-cluster.ts';
import { describeAdapterContract, tokenId } from './contract.ts';
import { expectGrantSetOfLiveRecords } from './grant-sets.ts';

const KEY_PREFIX = 'signin-test:';

let cluster: LocalCluster;
let client: Cluster;
beforeAll(async () => {
  cluster = await startLocalCluster(7101);
  const opened: RedisClient = await openRedis(cluster.config(KEY_PREFIX));
  if (!opened.isCluster) throw new Error('storage.redis.cluster did not open a Cluster client');
  client = opened as Cluster;
}, 30_000);
afterAll(async () => {
  if (client) await closeRedis(client);
  await cluster?.stop();
});

/** Every key of every master, with its value as text: what a dump of the whole cluster shows. */
async function dumpCluster(): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const node of client.nodes('master')) {
    for (const key of await node.keys('*')) {
      const type = await node.type(key);
      out[key] = type === 'hash' ? await node.hgetall(key) : type === 'set' ? await node.smembers(key) : await node.get(key);
    }
  }
  return JSON.stringify(out);
}

describeAdapterContract('Redis Cluster', async () => ({
  adapter: (model) => redisAdapter(client, model, { keyPrefix: KEY_PREFIX }),
  dump: dumpCluster,
  close: async () => {},
}));

describe('storage.redis.cluster in the config', () => {
  const withRedis = (redis: Record<string, unknown>) => () =>
    parseConfig({
      issuer: 'https://id.example.org',
      secrets: { cookieKeys: ['c'.repeat(43)], pairwiseSalt: 'p'.repeat(43) },
      storage: { kind: 'embedded', redis },
    });

  it('takes a list of nodes instead of a url, and refuses both or neither', () => {
    expect(withRedis({ cluster: ['10.0.0.11:6379', 'redis://10.0.0.12:6379'] })().storage.redis?.cluster).toHaveLength(2);
    expect(withRedis({ url: 'redis://127.0.0.1:6379', cluster: ['10.0.0.11:6379'] })).toThrow(/exactly one of `url`/);
    expect(withRedis({ keyPrefix: 'x:' })).toThrow(/exactly one of `url`/);
  });

  it('reads nodes written as host:port or as URLs', () => {
    expect(clusterNode('10.0.0.11:7000')).toEqual({ host: '10.0.0.11', port: 7000 });
    expect(clusterNode('redis://:pw@redis-a.internal:6380')).toEqual({ host: 'redis-a.internal', port: 6380 });
  });

  it('refuses to start on a cluster nobody answers, without showing its password', async () => {
    const opening = openRedis({ cluster: ['redis://:cluster-secret@127.0.0.1:7199'], keyPrefix: KEY_PREFIX, commandTimeoutMs: 500 });
    await expect(opening).rejects.toThrow(/not reachable at cluster redis:\/\/:\*\*\*@127\.0\.0\.1:7199/);
    await expect(opening).rejects.not.toThrow(/cluster-secret/);
  });
});

describe('Redis Cluster specifics', () => {
  it('revokes a grant whose records hash to slots on different nodes', async () => {
    const models = ['AccessToken', 'AuthorizationCode', 'Session'];
    const ids = Array.from({ length: 12 }, () => tokenId());
    const recordKey = (model: string, id: string) => `${KEY_PREFIX}${model}:${storageKey(id)}`;
    for (const [i, id] of ids.entries()) {
      const model = models[i % models.length];
      await redisAdapter(client, model, { keyPrefix: KEY_PREFIX }).upsert(
        id,
        { kind: model, grantId: 'spread-grant', uid: `uid-${i}` },
        60,
      );
    }
    // The test means something only if the records really are spread over the nodes.
    const slots = new Set(ids.map((id, i) => client.slots[clusterKeySlot(recordKey(models[i % models.length], id))]?.[0]));
    expect(slots.size).toBeGreaterThan(1);

    await redisAdapter(client, 'AccessToken', { keyPrefix: KEY_PREFIX }).revokeByGrantId('spread-grant');
    for (const [i, id] of ids.entries()) {
      const model = models[i % models.length];
      expect(await redisAdapter(client, model, { keyPrefix: KEY_PREFIX }).find(id)).toBeUndefined();
      expect(await redisAdapter(client, model, { keyPrefix: KEY_PREFIX }).findByUid(`uid-${i}`)).toBeUndefined();
    }
    expect(await client.exists(`${KEY_PREFIX}grant:spread-grant`)).toBe(0);
  });

  it('lists in a grant set the records that still exist, not every token the grant was ever given', async () => {
    await expectGrantSetOfLiveRecords(redisAdapter(client, 'AccessToken', { keyPrefix: KEY_PREFIX }), client, KEY_PREFIX, 'used-grant');
  });

  it('ends every record of a grant revoked while tokens are being issued under it', async () => {
    const tokens = redisAdapter(client, 'AccessToken', { keyPrefix: KEY_PREFIX });
    const before = Array.from({ length: 30 }, () => tokenId());
    await Promise.all(before.map((id) => tokens.upsert(id, { kind: 'AccessToken', grantId: 'busy-grant' }, 60)));
    const during = Array.from({ length: 30 }, () => tokenId());
    await Promise.all([
      ...during.map((id) => tokens.upsert(id, { kind: 'AccessToken', grantId: 'busy-grant' }, 60)),
      tokens.revokeByGrantId('busy-grant'),
    ]);
    // Issued before the revocation: all gone. Issued alongside it: each either gone or still listed in
    // the grant set, so that the next revocation ends it.
    for (const id of before) expect(await tokens.find(id)).toBeUndefined();
    const listed = new Set(await client.smembers(`${KEY_PREFIX}grant:busy-grant`));
    for (const id of during) {
      if (await tokens.find(id)) expect(listed.has(`${KEY_PREFIX}AccessToken:${storageKey(id)}`)).toBe(true);
    }
    await tokens.revokeByGrantId('busy-grant');
    for (const id of during) expect(await tokens.find(id)).toBeUndefined();
  });
});

/** The cluster hash slot of a key (CRC16 of the key, or of its {hash tag}, modulo 16384). */
function clusterKeySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  const tagged = open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(tagged)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

// Last in the file: it stops a node of the cluster.
describe('failed client authentications heard across instances on a cluster (failure-watch.ts)', () => {
  it('publishes from the node holding the set and is heard by an instance subscribed on another', async () => {
    const { watchFailures } = await import('../../src/accounts/failure-watch.ts');
    const name = `${KEY_PREFIX}rl:client-auth-ip:failing`;
    const a = await watchFailures(client, { name, windowSeconds: 600 });
    const b = await watchFailures(client, { name, windowSeconds: 600 });
    try {
      expect(b.clean('ip-1')).toBe(true);
      await a.failed('ip-1');
      for (let i = 0; i < 200 && b.clean('ip-1'); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(b.clean('ip-1')).toBe(false);
      const later = await watchFailures(client, { name, windowSeconds: 600 });
      expect(later.clean('ip-1')).toBe(false);
      await later.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('readiness on a Redis Cluster', () => {
  it('is ready while every master answers, and not once one of them is down', async () => {
    await expect(pingRedis(client)).resolves.toBeUndefined();
    await cluster.stopNode(7103);
    // /readyz gives the ping 2 s (src/edge/health.ts); a master down must not pass for ready meanwhile.
    const ping = Promise.race([pingRedis(client).then(() => 'ready'), new Promise((resolve) => setTimeout(resolve, 2000, 'no answer'))]);
    await expect(ping.catch(() => 'refused')).resolves.not.toBe('ready');
  });
});

// oidc-provider's storage contract on Redis, for the hot short-lived models (sessions, interactions,
// codes, access tokens...). Same semantics as the SQL adapter, keyed by the hash of each id.
//
// Layout, with P the key prefix and H = storageKey(id):
//   P<Model>:H                  hash { payload: JSON without jti, consumed?: epoch seconds }
//   P<Model>:uid:<uid>          H of the record holding that uid (Session.findByUid)
//   P<Model>:userCode:<hash>    H of the record holding that user code (DeviceCode.findByUserCode)
//   Pgrant:<grantId>            set of the record keys issued under that grant (a save drops ended ones)
// A hash rather than one JSON string: `consume` only adds a field (HSETNX), so it neither parses and
// rewrites the payload in Lua nor needs SET ... KEEPTTL, and the record keeps the TTL it was given.
//
// On Redis Cluster (redis.isCluster) the layout is the same, but these keys fall in different hash
// slots, and neither a MULTI nor a script may span slots: see cluster.ts for how upsert and
// revocation are split there, and what stays atomic.
import type { RedisClient } from './connect.ts';
import { storageKey } from '../token-key.ts';
import { alreadyConsumed, restoreId, stripId, type ModelAdapter, type Payload } from '../adapter.ts';
import { defineScripts } from './scripts.ts';
import { clusterRevokeGrant, clusterUpsert } from './cluster.ts';

/**
 * The TTL of a record saved without one. Every key here must expire, or Redis would fill up with
 * abandoned sessions; the engine passes a TTL for all the models we route here, and 14 days is above
 * any of them (our longest, Session, follows the session cookie), so this is only a safety net.
 */
export const MAX_TTL_SECONDS = 14 * 24 * 3600;

export interface RedisAdapterOptions {
  keyPrefix: string;
}

/**
 * Note for RefreshToken: the reuse grace lives in the SQL adapter only; storage.ts never routes refresh
 * tokens here, and if one were, it would be strictly single-use (the safe side).
 */
export function redisAdapter(redis: RedisClient, model: string, options: RedisAdapterOptions): ModelAdapter {
  defineScripts(redis);
  const prefix = options.keyPrefix;
  // ioredis adds its own keyPrefix to KEYS, not to the key names a script builds: those are given it in full.
  const clientPrefix = redis.options.keyPrefix ?? '';
  const recordKey = (hash: string) => `${prefix}${model}:${hash}`;
  const fullRecordPrefix = `${clientPrefix}${recordKey('')}`;
  const uidKey = (uid: string) => `${prefix}${model}:uid:${uid}`;
  // User codes are short secrets typed by a person: hashed too, like everything a dump could replay.
  const userCodeKey = (userCode: string) => `${prefix}${model}:userCode:${storageKey(userCode)}`;
  const grantKey = (grantId: string) => `${prefix}grant:${grantId}`;
  // Interactions carry the grantId of a grant they may reuse; they are not issued under it, and the
  // engine never revokes them by grant, so they stay out of grant sets (as in the engine's own adapter).
  const grantBound = model !== 'Interaction';

  /** A record as the engine reads it, from its two fields; a miss is undefined, never {}: the engine tests truthiness. */
  const loaded = (json: string | null, consumed: string | null, id?: string): Payload | undefined => {
    if (json === null) return undefined;
    const stored = JSON.parse(json) as Payload;
    const payload = id === undefined ? stored : restoreId(model, id, stored);
    return consumed === null ? payload : { ...payload, consumed: Number(consumed) };
  };

  const load = async (hash: string, id?: string): Promise<Payload | undefined> => {
    const [json, consumed] = await redis.hmget(recordKey(hash), 'payload', 'consumed');
    return loaded(json, consumed, id);
  };

  // Index entries are pointers checked on read: one left behind by a destroyed record finds nothing.
  const loadByIndex = async (indexKey: string): Promise<Payload | undefined> => {
    if (redis.isCluster) {
      const hash = await redis.get(indexKey);
      return hash === null ? undefined : load(hash);
    }
    // One round trip: the script follows the pointer on the server.
    const found = await redis.signinLoadByIndex(indexKey, fullRecordPrefix);
    return found ? loaded(found[0], found[1]) : undefined;
  };

  return {
    async upsert(id, payload, expiresIn) {
      const hash = storageKey(id);
      const key = recordKey(hash);
      const ttl = expiresIn === undefined ? MAX_TTL_SECONDS : Math.ceil(expiresIn);
      if (ttl <= 0) {
        // Already expired on arrival: what SQL would store and never return.
        await redis.del(key);
        return;
      }
      const json = JSON.stringify(stripId(model, payload));
      if (redis.isCluster) {
        const indexes = [payload.uid ? uidKey(payload.uid) : undefined, payload.userCode ? userCodeKey(payload.userCode) : undefined];
        const grant = grantBound && payload.grantId ? grantKey(payload.grantId) : undefined;
        await clusterUpsert(redis, { key, hash, json, ttl, indexes: indexes.filter((k) => k !== undefined), grant });
        return;
      }
      // One script: the record, its indexes and its grant membership appear together or not at all.
      const grant = grantBound && payload.grantId ? grantKey(payload.grantId) : undefined;
      const keys = [key];
      if (grant) keys.push(grant);
      if (payload.uid) keys.push(uidKey(payload.uid));
      if (payload.userCode) keys.push(userCodeKey(payload.userCode));
      await redis.signinSave(keys.length, ...keys, json, ttl, hash, grant ? '1' : '0', key, clientPrefix);
    },

    find: (id) => load(storageKey(id), id),

    findByUid: (uid) => loadByIndex(uidKey(uid)),

    findByUserCode: (userCode) => loadByIndex(userCodeKey(userCode)),

    async consume(id) {
      // Atomic on the server: of concurrent redemptions exactly one sets `consumed` and wins.
      const won = await redis.signinConsume(recordKey(storageKey(id)), Math.floor(Date.now() / 1000));
      if (won !== 1) throw alreadyConsumed(model);
    },

    async destroy(id) {
      // Index entries and grant-set members pointing here are left to expire: they are only ever
      // followed to this key, which is gone. Deleting a uid index here could even be wrong, since
      // Session.resetIdentifier saves the same uid under a new id.
      await redis.del(recordKey(storageKey(id)));
    },

    async revokeByGrantId(grantId) {
      // One set per grant across models: the engine (and src/grants/revoke.ts) always revokes every
      // grant-bound model together, so the first call ends them all and the others find an empty set.
      if (redis.isCluster) await clusterRevokeGrant(redis, grantKey(grantId));
      else await redis.signinRevokeGrant(grantKey(grantId), clientPrefix);
    },
  };
}

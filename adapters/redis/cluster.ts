// The two multi-key operations of the Redis adapter, split for Redis Cluster. A record, its uid or
// user-code index and its grant set hash to different slots, and a cluster refuses a MULTI or a
// script whose keys span slots (CROSSSLOT). What stays atomic:
// - single-use redemption: `consume` touches the record key only, one script on one node, so of
//   concurrent redemptions exactly one wins, as on one server;
// - each write and each delete of one key.
// What is no longer atomic is the group: an upsert writes the record, then its indexes and grant
// membership; a revocation deletes the members one by one. The order below keeps that safe:
// - the record is written before it is listed in its grant set, and the upsert returns (so the engine
//   hands the token out) only once it is listed: a revocation that starts after an upsert returned
//   finds its record. An upsert racing a revocation may survive it, exactly as an upsert landing just
//   after the single-server script would;
// - the engine never trusts such a survivor alone: the Grant lives in SQL, is destroyed by the same
//   revocation (src/grants/revoke.ts, and the engine's own), and the engine refuses a code or access
//   token whose Grant is gone ("grant not found");
// - a reader during revocation may see some tokens of the grant gone and others not yet, for the few
//   milliseconds the deletes take: the same as a request that arrived just before a single-server
//   revocation.
// Index entries are pointers checked on read (adapter.ts), so one written after its record was
// deleted finds nothing.
import type { RedisClient } from './connect.ts';
import { execOrThrow } from './transaction.ts';
import { ENDED_PICKS } from './scripts.ts';

export interface ClusterRecord {
  key: string;
  /** What index entries point at: the hash part of `key`. */
  hash: string;
  json: string;
  ttl: number;
  indexes: string[];
  grant?: string;
}

export async function clusterUpsert(redis: RedisClient, record: ClusterRecord): Promise<void> {
  const { key, hash, json, ttl, indexes, grant } = record;
  // One slot, one MULTI: the payload and its TTL together (HSET keeps an existing `consumed` field).
  await execOrThrow(redis.multi().hset(key, 'payload', json).expire(key, ttl));
  const writes: Promise<unknown>[] = indexes.map((index) => redis.set(index, hash, 'EX', ttl));
  // The set and its TTL share a slot (the set's own key): one script, atomic as on one server.
  if (grant) writes.push(redis.signinAddToGrant(grant, key, ttl), dropEnded(redis, grant));
  await Promise.all(writes);
}

/**
 * As the single-server save does (scripts.ts): members picked at random leave the grant set when their
 * record is gone, so a grant in use does not keep every token of its life listed. A member is added only
 * after its record is written (above), so a missing record is one that ended. Housekeeping only: the
 * members may sit on other nodes, and a node that does not answer here fails no save (the next one tries).
 */
async function dropEnded(redis: RedisClient, grant: string): Promise<void> {
  try {
    const sample = await redis.srandmember(grant, ENDED_PICKS);
    await Promise.all(sample.map(async (member) => (await redis.exists(member)) === 0 && redis.srem(grant, member)));
  } catch {
    // left for the next save
  }
}

/**
 * Deletes every record listed in the grant set. Members are removed from the set only once deleted,
 * and Redis drops a set when its last member goes, so the set disappears last; a member added while
 * this runs is picked up by the next round.
 */
export async function clusterRevokeGrant(redis: RedisClient, grantKey: string): Promise<void> {
  for (;;) {
    const members = await redis.smembers(grantKey);
    if (members.length === 0) return;
    // One DEL per key: a multi-key DEL spanning slots would be refused.
    await Promise.all(members.map((member) => redis.del(member)));
    await redis.srem(grantKey, ...members);
  }
}

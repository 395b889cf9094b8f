// The Lua scripts of the Redis adapter. Each runs atomically on the server, which is what makes
// single-use redemption and grant revocation safe when several instances share one Redis.
import type { Result } from 'ioredis';
import type { RedisClient } from './connect.ts';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** 1 when this call marked the record consumed, 0 when it was consumed already or is gone. */
    signinConsume(key: string, epochSeconds: number): Result<number, Context>;
    /**
     * Saves a record with its TTL, its index entries and its grant membership: KEYS are the record, then
     * the grant set when ARGV[4] is '1', then the index keys; ARGV are the payload JSON, the TTL, the
     * record's hash (what the indexes hold), the grant flag, the member name for the grant set and the
     * client's own key prefix.
     */
    signinSave(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Result<number, Context>;
    /** Adds `member` to the grant set and raises the set's TTL to `seconds` if it is lower (or unset); never shortens it. */
    signinAddToGrant(grantKey: string, member: string, seconds: number): Result<number, Context>;
    /**
     * Follows an index entry to its record: the record's `payload` and `consumed` fields, or null when
     * the entry is gone. `recordPrefix` is the record key before the hash, the client's own prefix included.
     */
    signinLoadByIndex(indexKey: string, recordPrefix: string): Result<[string | null, string | null] | null, Context>;
    /** Deletes every member of a grant set, then the set; returns how many members it held. */
    signinRevokeGrant(grantKey: string, clientPrefix: string): Result<number, Context>;
  }
}

// HSETNX alone would be atomic, but on a missing (expired) key it would create a hash without a TTL:
// the EXISTS check keeps a late consume from resurrecting an expired code as an immortal key.
// HSETNX adds a field and leaves the key's TTL alone, so the code still expires when it was meant to.
const CONSUME = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSETNX', KEYS[1], 'consumed', ARGV[1])`;

// One command where a MULTI of HSET, EXPIRE, SADD, the TTL extension and EXEC took five or six: what
// every code, access token and session save sends (a script is as atomic as the MULTI was). HSET keeps
// an existing `consumed` field, as the SQL upsert keeps consumed_at. The grant set lives as long as its
// longest-lived member, so revocation always finds every member. The member is passed as an argument,
// not taken from KEYS[1]: ioredis adds its own keyPrefix to KEYS, and the set holds names without it
// (ARGV[6] and REVOKE_GRANT add it back).
// A grant in use keeps its set alive, one member per token issued under it: ENDED_PICKS members picked at
// random are dropped when their record is gone (expired, destroyed), so the set holds about as many members
// as the grant has live records, not every token of its life (two picks per added member shrink a set of
// ended ones; one would let it grow slowly). A member is listed only once its record is written (here, in
// the same script), so a missing record is one that ended.
export const ENDED_PICKS = 2;
const SAVE = `
local ttl = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'payload', ARGV[1])
redis.call('EXPIRE', KEYS[1], ttl)
local first = 2
if ARGV[4] == '1' then
  for _, member in ipairs(redis.call('SRANDMEMBER', KEYS[2], ${ENDED_PICKS})) do
    if redis.call('EXISTS', ARGV[6] .. member) == 0 then redis.call('SREM', KEYS[2], member) end
  end
  redis.call('SADD', KEYS[2], ARGV[5])
  if redis.call('TTL', KEYS[2]) < ttl then redis.call('EXPIRE', KEYS[2], ttl) end
  first = 3
end
for i = first, #KEYS do redis.call('SET', KEYS[i], ARGV[3], 'EX', ttl) end
return 1`;

// The cluster's grant membership (cluster.ts): one script, not a MULTI around one. ioredis runs a script
// by EVALSHA once it has sent it on a connection, and answers a NOSCRIPT reply by sending the script
// again; inside a MULTI the failure is the transaction's and stays one. A replica promoted by a failover
// has an empty script cache: a MULTI carrying the script there failed with NOSCRIPT (a 500 for every
// code issued) for as long as that connection lived. TTL is -1 for a set just created by the SADD, so
// the first member sets it.
const ADD_TO_GRANT = `
redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1`;

// Members are stored as the adapter's key names; the client's own keyPrefix (ioredis applies it to
// KEYS but not to keys a script computes) is passed in so the script deletes the same keys. This
// touches keys not declared in KEYS, which is fine on one Redis server but not on Redis Cluster.
const REVOKE_GRANT = `
local members = redis.call('SMEMBERS', KEYS[1])
for _, member in ipairs(members) do redis.call('DEL', ARGV[1] .. member) end
redis.call('DEL', KEYS[1])
return #members`;

// An index lookup (Session.findByUid) in one round trip instead of a GET and then an HMGET. Like
// REVOKE_GRANT, it reads a key it computes, which one Redis server allows and Redis Cluster does not
// (the adapter reads twice there).
const LOAD_BY_INDEX = `
local hash = redis.call('GET', KEYS[1])
if not hash then return false end
return redis.call('HMGET', ARGV[1] .. hash, 'payload', 'consumed')`;

const defined = new WeakSet<RedisClient>();

/** Defines the scripts once per client; ioredis then runs them by EVALSHA, loading them when needed. */
export function defineScripts(redis: RedisClient): void {
  if (defined.has(redis)) return;
  redis.defineCommand('signinSave', { lua: SAVE });
  redis.defineCommand('signinConsume', { numberOfKeys: 1, lua: CONSUME });
  redis.defineCommand('signinAddToGrant', { numberOfKeys: 1, lua: ADD_TO_GRANT });
  redis.defineCommand('signinRevokeGrant', { numberOfKeys: 1, lua: REVOKE_GRANT });
  redis.defineCommand('signinLoadByIndex', { numberOfKeys: 1, lua: LOAD_BY_INDEX });
  defined.add(redis);
}

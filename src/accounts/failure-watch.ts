// Which addresses have failed a client authentication lately, known on every instance without asking
// Redis at each request. The per-IP limit (src/edge/client-auth-limit.ts) used to read its counter
// before every token, refresh and revocation request: one Redis round trip for a question whose answer
// is almost always "no failure". Failures are rare and every one of them is counted in Redis anyway, so
// each instance now hears of them as they happen and keeps the list in memory:
//  - a failure is added, by a script on the Redis server, to a sorted set of the addresses failing in
//    their window (scored by the server's clock, so no two instances' clocks need agree), and published
//    on a channel every instance listens to;
//  - an instance that (re)subscribes reads that set, then follows the channel (a read that fails is
//    tried again shortly);
//  - an address the instance knows nothing of is clean; one with a failure in its window, or any address
//    while the instance is not listening (starting, reconnecting, or with too many entries), is read from
//    Redis as before.
// What another instance may miss is the failures of the last few milliseconds before the message
// arrives: the same bound as a burst of parallel requests, which the counters already allow.
import type { Cluster, Redis, Result } from 'ioredis';
import { RECONNECT_MAX_MS } from '../../adapters/redis/connect.ts';

export interface FailureWatch {
  /** True when no failure is on record for the (hashed) key, as far as every instance has said. */
  clean(key: string): boolean;
  /** A failure for the key was counted: every instance, this one first, learns of it. */
  failed(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface FailureWatchOptions {
  /** Names the set and the channel, e.g. `signin:rl:client-auth-ip:failing`. */
  name: string;
  windowSeconds: number;
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** Adds the member with the server's time + window, prunes, publishes it on ARGV[3]. */
    signinNoteFailure(set: string, member: string, windowMs: number, channel: string): Result<number, Context>;
    /** The members still in their window, each followed by its milliseconds left. */
    signinFailing(set: string): Result<string[], Context>;
  }
}

// The Redis server's time in milliseconds: the one clock every instance's entries are scored by.
const SERVER_NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

const NOTE_FAILURE = `${SERVER_NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('PUBLISH', ARGV[3], ARGV[1])`;

const FAILING = `${SERVER_NOW_MS}
local found = redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf', 'WITHSCORES')
local out = {}
for i = 1, #found, 2 do
  out[#out + 1] = found[i]
  out[#out + 1] = tostring(tonumber(found[i + 1]) - now)
end
return out`;

/**
 * Past this many addresses in their window (an attack from very many), the instance forgets its list and
 * reads every address from Redis, trying the set again every RESYNC_MS until it is small enough.
 */
const MAX_ENTRIES = 100_000;
const RESYNC_MS = 10_000;
/** How long a start waits for the first sync; past it, the service starts reading addresses as before. */
const STARTUP_WAIT_MS = 2_000;

export async function watchFailures(redis: Redis | Cluster, options: FailureWatchOptions): Promise<FailureWatch> {
  redis.defineCommand('signinNoteFailure', { numberOfKeys: 1, lua: NOTE_FAILURE });
  redis.defineCommand('signinFailing', { numberOfKeys: 1, lua: FAILING });
  const { name: set, windowSeconds } = options;
  const channel = set;
  const windowMs = windowSeconds * 1000;
  const failing = new Map<string, number>(); // key -> until, on this process's clock (ms)
  // Recording: messages are applied to `failing` (from the start of a sync on). Listening: `clean` may
  // answer from `failing` (once a sync has read the set). A lost connection or saturation ends both.
  let recording = false;
  let listening = false;
  // Counts the interruptions, so a sync that one overtook does not claim to be listening.
  let interruptions = 0;
  let closed = false;
  let syncing: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const stop = () => {
    recording = false;
    listening = false;
    interruptions += 1;
  };
  const prune = () => {
    const now = Date.now();
    for (const [key, until] of failing) if (until <= now) failing.delete(key);
  };
  /** Tries a sync again in `ms`, unless a try is already due. */
  const syncLater = (ms: number) => {
    retry ??= setTimeout(() => {
      retry = undefined;
      void resync();
    }, ms).unref();
  };
  /** Too many to keep: forget them all and read from Redis until a later sync finds fewer. */
  const saturate = () => {
    stop();
    failing.clear();
    syncLater(RESYNC_MS);
  };
  const remember = (key: string, msLeft: number) => {
    if (!recording) return;
    if (failing.size >= MAX_ENTRIES && !failing.has(key)) {
      prune();
      if (failing.size >= MAX_ENTRIES) return saturate();
    }
    failing.set(key, Math.max(Date.now() + msLeft, failing.get(key) ?? 0));
  };

  // Entries past their window also leave without being asked about, so a quiet instance holds few.
  const pruning = setInterval(prune, Math.max(windowMs, 60_000)).unref();

  const subscriber: Redis | Cluster = redis.isCluster ? (redis as Cluster).duplicate() : (redis as Redis).duplicate();
  subscriber.on('error', () => {}); // an outage is reported by the requests' own reads
  subscriber.on('message', (from: string, key: string) => {
    // While not recording, the next sync reads the set, which holds this failure too.
    if (from === channel && recording) remember(key, windowMs);
  });
  // What was published while the connection was down is unknown: read from Redis until the next sync.
  subscriber.on('close', stop);
  subscriber.on('reconnecting', stop);

  const sync = async () => {
    if (closed) return;
    const before = interruptions;
    failing.clear();
    recording = true;
    try {
      await subscriber.subscribe(channel); // first: a failure published after the read below is heard
      const found = await redis.signinFailing(set);
      if (found.length / 2 >= MAX_ENTRIES) return saturate();
      for (let i = 0; i < found.length; i += 2) remember(found[i]!, Number(found[i + 1]));
      listening = interruptions === before && recording;
    } catch {
      // The listening connection and the service's client come back from an outage one at a time: when
      // the listening one is first, its 'ready' starts a sync whose read fails at once, and no other
      // 'ready' of it would come to try again.
      stop();
      // By the longest wait between two reconnection attempts, the other connection is back too.
      syncLater(RECONNECT_MAX_MS);
    }
  };
  const resync = () => (syncing ??= sync().finally(() => (syncing = undefined)));
  subscriber.on('ready', () => void resync());
  const firstSync = (async () => {
    try {
      if (subscriber.status === 'wait') await subscriber.connect(); // a lazily connecting client (ours)
      await resync();
    } catch {
      // Not listening: every key is read from Redis, as without the watch, until a reconnection syncs.
    }
  })();
  // A Redis that accepts connections but does not answer must not hold the service's start.
  let waited: NodeJS.Timeout | undefined;
  await Promise.race([firstSync, new Promise<void>((resolve) => (waited = setTimeout(resolve, STARTUP_WAIT_MS)))]);
  clearTimeout(waited);

  return {
    clean(key) {
      if (!listening) return false;
      const until = failing.get(key);
      if (until === undefined) return true;
      if (until > Date.now()) return false;
      failing.delete(key);
      return true;
    },
    async failed(key) {
      remember(key, windowMs);
      await redis.signinNoteFailure(set, key, windowMs, channel);
    },
    async close() {
      closed = true;
      stop();
      if (retry) clearTimeout(retry);
      clearInterval(pruning);
      subscriber.disconnect();
    },
  };
}

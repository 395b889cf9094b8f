// Redis memory: what each record the service keeps in Redis weighs, and what refreshes cost. On a Redis of
// its own (a `redis-server` it starts on a free port, no persistence), so that every byte measured is the
// service's: users sign in (sessions, interactions, codes, access tokens, grant sets), then refresh again
// and again. Printed: per kind of key, the count and the mean of MEMORY USAGE; and over the refreshes,
// Redis's used_memory against the refreshes made (least squares over the checkpoints after the first
// tenth, which also pays one-time allocations), in bytes per refresh
// and MB per 1,000 refreshes. Every access token lives its whole `ttl.accessToken`, so the memory a
// steady refresh rate holds is rate × ttl.accessToken × bytes per refresh (docs/operations/sizing.md).
//   npx tsx bench/redis-memory.ts
//   BENCH_POSTGRES_URL (else the embedded store), BENCH_REDIS_SERVER (redis-server), BENCH_GRANTS (50),
//   BENCH_REFRESHES (10000), BENCH_CONCURRENCY (8), BENCH_RESULT (a file to write the figures to, as JSON)
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { Browser, signInAndConsent } from '../test/support/browser.ts';
import { exchangeCode, refreshGrant } from '../test/support/flow.ts';
import { relyingParty } from '../test/support/relying-party.ts';
import { startTestService } from '../test/support/service.ts';
import { freePort } from '../test/server/child-server.ts';
import { countSetting } from './settings.ts';

const GRANTS = countSetting('BENCH_GRANTS', 50);
const REFRESHES = countSetting('BENCH_REFRESHES', 10_000);
const CONCURRENCY = countSetting('BENCH_CONCURRENCY', 8);
const CHECKPOINTS = 10;
const PREFIX = 'bench:';

/** What a key is, from its name: a model's record, an index, a grant set, a rate limit. */
export function kindOfKey(key: string, prefix: string): string {
  const name = key.slice(prefix.length);
  if (name.startsWith('grant:')) return 'grant set';
  if (name.startsWith('rl:')) return 'rate limit';
  const index = /^([A-Za-z]+):(uid|userCode):/.exec(name);
  if (index) return `${index[1]} ${index[2]} index`;
  const record = /^([A-Za-z]+):[^:]+$/.exec(name);
  return record ? record[1] : `other (${name.split(':')[0]})`;
}

/** The slope of y against x by least squares. */
export function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return num / den;
}

async function startRedis(): Promise<{ url: string; version: string; stop(): void }> {
  const server = process.env.BENCH_REDIS_SERVER ?? 'redis-server';
  const version = /v=(\S+)/.exec(spawnSync(server, ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1];
  if (!version) throw new Error(`${server} is needed (set BENCH_REDIS_SERVER to another binary)`);
  const port = await freePort();
  const child = spawn(server, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: 0 });
  probe.on('error', () => {}); // refused until the server listens
  for (let i = 0; i < 100; i += 1) {
    if ((await probe.ping().catch(() => '')) === 'PONG') break;
    await sleep(50);
  }
  probe.disconnect();
  return { url: `redis://127.0.0.1:${port}`, version, stop: () => child.kill('SIGKILL') };
}

const usedMemory = async (redis: Redis): Promise<number> => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);

/** Count and mean MEMORY USAGE of every key under the prefix, by kind; and the members of the grant sets. */
async function keysByKind(redis: Redis) {
  const kinds: Record<string, { count: number; bytes: number }> = {};
  let members = 0;
  let setBytes = 0;
  for await (const keys of redis.scanStream({ match: `${PREFIX}*`, count: 1000 }) as AsyncIterable<string[]>) {
    for (const key of keys) {
      const kind = kindOfKey(key, PREFIX);
      const bytes = Number(await redis.memory('USAGE', key, 'SAMPLES', 0));
      kinds[kind] ??= { count: 0, bytes: 0 };
      kinds[kind].count += 1;
      kinds[kind].bytes += bytes;
      if (kind === 'grant set') {
        members += await redis.scard(key);
        setBytes += bytes;
      }
    }
  }
  const byKind = Object.fromEntries(
    Object.entries(kinds)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, { count, bytes }]) => [kind, { keys: count, mean_bytes: Math.round(bytes / count) }]),
  );
  return { by_kind: byKind, grant_set_bytes_per_member: members ? Math.round(setBytes / members) : 0 };
}

async function main(): Promise<void> {
  const redisServer = await startRedis();
  const many = { points: 1_000_000, windowSeconds: 60 };
  const sql = process.env.BENCH_POSTGRES_URL
    ? { kind: 'postgres' as const, postgres: { url: process.env.BENCH_POSTGRES_URL } }
    : { kind: 'embedded' as const, dataDir: 'memory://' };
  const svc = await startTestService(
    { storage: { ...sql, redis: { url: redisServer.url, keyPrefix: PREFIX } }, rateLimit: { loginPerAccount: many, loginPerIp: many } },
    { migrations: 'auto' },
  );
  const redis = new Redis(redisServer.url);
  try {
    const load = loadavg();
    console.log(
      `Redis ${redisServer.version} of its own; SQL: ${sql.kind}; ${GRANTS} sign-ins, then ${REFRESHES} refreshes; node ${process.version}; load average ${load.map((l) => l.toFixed(2)).join(' ')}`,
    );
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const atRest = await usedMemory(redis);

    // Sign-ins, a few at a time: each leaves a session, a code (consumed, until it expires), an access
    // token, a grant set, and the indexes.
    const refreshTokens: string[] = [];
    let next = 0;
    const signIns = async () => {
      while (next < GRANTS) {
        next += 1;
        const user = await svc.createUser();
        const start = await rp.start();
        const { callback } = await signInAndConsent(new Browser(svc.url), start.url, user);
        const res = await exchangeCode(svc.url, client, { callback, start });
        if (res.status !== 200) throw new Error(`code exchange answered ${res.status}`);
        refreshTokens.push(String(res.json.refresh_token));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, GRANTS) }, signIns));
    const afterSignIns = await usedMemory(redis);
    const signedIn = await keysByKind(redis);

    // Refreshes, each grant in turn, with used_memory read at every checkpoint.
    const points: Array<[number, number]> = [[0, afterSignIns]];
    const keysBefore = await redis.dbsize();
    let done = 0;
    let failed = 0;
    const perCheckpoint = Math.ceil(REFRESHES / CHECKPOINTS);
    for (let checkpoint = 1; checkpoint <= CHECKPOINTS; checkpoint += 1) {
      const target = Math.min(REFRESHES, checkpoint * perCheckpoint);
      const worker = async (lane: number) => {
        for (let i = lane; i < refreshTokens.length && done < target; i += CONCURRENCY) {
          const res = await refreshGrant(svc.url, client, refreshTokens[i]);
          if (res.status === 200) refreshTokens[i] = String(res.json.refresh_token);
          else failed += 1;
          done += 1;
        }
      };
      while (done < target) await Promise.all(Array.from({ length: CONCURRENCY }, (_, lane) => worker(lane)));
      points.push([done, await usedMemory(redis)]);
    }
    const refreshed = await keysByKind(redis);
    // From the first checkpoint on: the first refreshes also pay one-time allocations (scripts, buffers).
    const bytesPerRefresh = slope(points.slice(1));
    const keysPerRefresh = ((await redis.dbsize()) - keysBefore) / done;

    const result = {
      benchmark: 'redis-memory',
      date: new Date().toISOString().slice(0, 10),
      machine: { cpu: cpus()[0]?.model, cores: cpus().length, load_average_at_start: load.map((l) => Number(l.toFixed(2))) },
      node: process.version,
      stores: `Redis ${redisServer.version} (its own, no persistence), ${sql.kind}`,
      command: 'npx tsx bench/redis-memory.ts',
      settings: { grants: GRANTS, refreshes: REFRESHES, concurrency: CONCURRENCY },
      used_memory_bytes: { at_rest: atRest, after_sign_ins: afterSignIns, after_refreshes: points.at(-1)![1] },
      after_sign_ins: signedIn,
      after_refreshes: refreshed,
      refreshes: {
        made: done,
        failed,
        keys_per_refresh: Number(keysPerRefresh.toFixed(3)),
        bytes_per_refresh: Math.round(bytesPerRefresh),
        mb_per_1000_refreshes: Number(((bytesPerRefresh * 1000) / 1e6).toFixed(3)),
        checkpoints: points.map(([n, bytes]) => ({ refreshes: n, used_memory: bytes })),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    if (process.env.BENCH_RESULT) writeFileSync(process.env.BENCH_RESULT, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    redis.disconnect();
    await svc.stop();
    redisServer.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

// Throughput of the protocol endpoints on this machine: authorization round trips, code exchanges,
// refreshes and userinfo calls per second, with latency percentiles and the process's memory.
//   npx tsx bench/protocol-throughput.ts                      (embedded store, in memory)
//   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1/test BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/protocol-throughput.ts
// The load comes from the same process, so figures compare runs and storages rather than give a ceiling.
import { startTestService } from '../test/support/service.ts';
import { benchStorage, clearBenchStorageKeys } from './storage.ts';
import { relyingParty } from '../test/support/relying-party.ts';
import { Browser } from '../test/support/browser.ts';
import { signIn, postForm } from '../test/support/flow.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const COUNT = Number(process.env.BENCH_COUNT ?? 400);

const storage = benchStorage();
await clearBenchStorageKeys(storage);

async function measure(label: string, count: number, job: (i: number) => Promise<unknown>): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await job(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  console.log(
    `${label.padEnd(22)} ${(count / seconds).toFixed(0).padStart(6)}/s   p50 ${pct(50)} ms   p99 ${pct(99)} ms   (${count} in ${seconds.toFixed(2)} s)`,
  );
}

const svc = await startTestService({ storage }, { migrations: 'auto' });
console.log(`storage: ${storage.kind}${'redis' in storage ? ' + redis' : ''}, concurrency ${CONCURRENCY}, node ${process.version}`);
const user = await svc.createUser();
const client = await svc.createClient();
const rp = await relyingParty(svc.url, client);
const browser = new Browser(svc.url);
await signIn(svc.url, rp, user, { browser }); // signs in and consents once; later authorizations skip both

const codes: Array<{ code: string; verifier: string }> = [];
await measure('authorize (to code)', COUNT, async () => {
  const start = await rp.start();
  const back = await browser.open(start.url);
  if (!(back instanceof URL)) throw new Error('expected a redirect with a code');
  codes.push({ code: back.searchParams.get('code')!, verifier: start.verifier });
});

const refreshTokens: string[] = [];
let accessToken = '';
await measure('code exchange', codes.length, async (i) => {
  const res = await postForm(`${svc.url}/oauth/token`, {
    grant_type: 'authorization_code',
    code: codes[i].code,
    code_verifier: codes[i].verifier,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  if (res.status !== 200) throw new Error(`exchange answered ${res.status} ${res.text}`);
  refreshTokens.push(String(res.json.refresh_token));
  accessToken = String(res.json.access_token);
});

await measure('refresh', refreshTokens.length, async (i) => {
  const res = await postForm(`${svc.url}/oauth/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshTokens[i],
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  if (res.status !== 200) throw new Error(`refresh answered ${res.status} ${res.text}`);
});

await measure('userinfo', COUNT * 4, async () => {
  const res = await fetch(`${svc.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  if (res.status !== 200) throw new Error(`userinfo answered ${res.status}`);
  await res.arrayBuffer();
});

const { rss, heapUsed } = process.memoryUsage();
console.log(`memory: rss ${(rss / 2 ** 20).toFixed(0)} MiB, heap ${(heapUsed / 2 ** 20).toFixed(0)} MiB`);
await svc.stop();

// Soak: virtual users refreshing their tokens (and a few signing in through the pages) for a given time,
// against the service running in a child process, so that the memory printed is the server's alone.
// Every minute: refreshes per second, refresh latency p50/p99, sign-ins, errors, and the server's RSS.
// At the end: the row counts of the tables that grow with use.
//   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/soak BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/soak.ts
//   SOAK_MINUTES (10), SOAK_REFRESH_USERS (6), SOAK_SIGNIN_USERS (2), SOAK_SWEEP_SECONDS (60)
// Without BENCH_POSTGRES_URL it runs on the embedded store, in memory. Linux only (reads /proc for the RSS).
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Browser, signInAndConsent } from '../test/support/browser.ts';
import { exchangeCode, refreshGrant } from '../test/support/flow.ts';
import { relyingParty } from '../test/support/relying-party.ts';
import { startTestService, type TestClient, type TestUser } from '../test/support/service.ts';
import { benchStorage, clearBenchStorageKeys } from './storage.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const REFRESH_USERS = Number(process.env.SOAK_REFRESH_USERS ?? 6);
const SIGNIN_USERS = Number(process.env.SOAK_SIGNIN_USERS ?? 2);
const SWEEP_SECONDS = Number(process.env.SOAK_SWEEP_SECONDS ?? 60);

interface App {
  client: TestClient;
  user: TestUser;
}
type ToServer = { type: 'counts' } | { type: 'stop' };
type FromServer = { type: 'ready'; url: string; apps: App[] } | { type: 'counts'; counts: Record<string, number> };

const COUNTED = `SELECT 'oidc_models ' || model AS name, count(*)::int AS n FROM oidc_models GROUP BY model
  UNION ALL SELECT 'refresh_families', count(*)::int FROM refresh_families
  UNION ALL SELECT 'consents', count(*)::int FROM consents
  UNION ALL SELECT 'account_sessions', count(*)::int FROM account_sessions`;

/** The child: the service, an application and a user per virtual user, and the row counts on demand. */
async function serve(): Promise<void> {
  const many = { points: 1_000_000, windowSeconds: 60 };
  const svc = await startTestService(
    { storage: benchStorage(), rateLimit: { loginPerAccount: many, loginPerIp: many } },
    { migrations: 'auto', sweepIntervalSeconds: SWEEP_SECONDS },
  );
  const apps: App[] = [];
  for (let i = 0; i < REFRESH_USERS + SIGNIN_USERS; i += 1) apps.push({ client: await svc.createClient(), user: await svc.createUser() });
  const send = (message: FromServer) => process.send?.(message);
  process.on('message', (message: ToServer) => {
    if (message.type === 'counts') {
      void svc.service.context.db.query<{ name: string; n: number }>(COUNTED).then((res) => {
        send({ type: 'counts', counts: Object.fromEntries(res.rows.map((r) => [r.name, Number(r.n)])) });
      });
    } else {
      void svc.stop().then(() => process.exit(0));
    }
  });
  send({ type: 'ready', url: svc.url, apps });
}

/** Latencies and counts of one minute. */
class Minute {
  readonly latencies: number[] = [];
  signIns = 0;
  errors = 0;
}

async function drive(): Promise<void> {
  const storage = benchStorage();
  await clearBenchStorageKeys(storage);
  const server: ChildProcess = fork(process.argv[1], [], { env: { ...process.env, SOAK_ROLE: 'server' } });
  const [ready] = (await once(server, 'message')) as [Extract<FromServer, { type: 'ready' }>];
  const { url, apps } = ready;
  const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  console.log(
    `storage: ${storage.kind}${'redis' in storage && storage.redis ? ' + redis' : ''}; ${REFRESH_USERS} refreshing and ${SIGNIN_USERS} signing-in users for ${MINUTES} min; node ${process.version}`,
  );
  console.log(`server RSS at start: ${rssMiB().toFixed(0)} MiB`);

  const started = performance.now();
  const deadline = started + MINUTES * 60_000;
  const minutes: Minute[] = [];
  const current = () => (minutes[Math.floor((performance.now() - started) / 60_000)] ??= new Minute());

  const signIn = async (app: App) => {
    const rp = await relyingParty(url, app.client);
    const start = await rp.start();
    const { callback } = await signInAndConsent(new Browser(url), start.url, app.user);
    const res = await exchangeCode(url, app.client, { callback, start });
    if (res.status !== 200) throw new Error(`code exchange answered ${res.status}`);
    return String(res.json.refresh_token);
  };

  const refreshing = async (app: App) => {
    let token = await signIn(app);
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const res = await refreshGrant(url, app.client, token);
      const minute = current();
      if (res.status === 200) {
        minute.latencies.push(performance.now() - t0);
        token = String(res.json.refresh_token);
      } else {
        minute.errors += 1;
        token = await signIn(app);
      }
    }
  };

  const signingIn = async (app: App) => {
    while (performance.now() < deadline) {
      try {
        await signIn(app);
        current().signIns += 1;
      } catch {
        current().errors += 1;
      }
    }
  };

  // Each minute once it is over, in order: a timer firing a little early or late skips or repeats none.
  let reported = 0;
  const printFinishedMinutes = () => {
    while (performance.now() - started >= (reported + 1) * 60_000) {
      const index = reported;
      reported += 1;
      const minute = minutes[index] ?? new Minute();
      const sorted = [...minute.latencies].sort((a, b) => a - b);
      const pct = (p: number) =>
        sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1) : '-';
      console.log(
        `minute ${String(index + 1).padStart(2)}: refresh ${(sorted.length / 60).toFixed(1).padStart(6)}/s  p50 ${pct(50)} ms  p99 ${pct(99)} ms  ` +
          `sign-ins ${minute.signIns}  errors ${minute.errors}  server RSS ${rssMiB().toFixed(0)} MiB`,
      );
    }
  };
  const report = setInterval(printFinishedMinutes, 1_000);

  await Promise.all([...apps.slice(0, REFRESH_USERS).map(refreshing), ...apps.slice(REFRESH_USERS).map(signingIn)]);
  clearInterval(report);
  printFinishedMinutes(); // the last minute ends with the run, between two ticks

  server.send({ type: 'counts' } satisfies ToServer);
  const [counts] = (await once(server, 'message')) as [Extract<FromServer, { type: 'counts' }>];
  const total = minutes.reduce((sum, m) => sum + m.latencies.length, 0);
  const signIns = minutes.reduce((sum, m) => sum + m.signIns, 0);
  console.log(
    `in all: ${total} refreshes, ${signIns} sign-ins (plus one per refreshing user); server RSS at the end ${rssMiB().toFixed(0)} MiB`,
  );
  console.log('rows at the end:', counts.counts);
  server.send({ type: 'stop' } satisfies ToServer);
  await once(server, 'exit');
}

if (process.env.SOAK_ROLE === 'server') await serve();
else await drive();

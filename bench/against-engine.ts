// The service against the bare engine it wraps, side by side in one run, with the OIDC benchmark
// harness (a separate checkout: OIDC_BENCH_DIR, by default ../shared/bench next to this project). The
// harness starts its reference servers (oidc-provider 9.13 in Koa, same argon2id, RS256, pairwise and
// PKCE settings) on Redis and on Postgres; this script adds the service, run from its JavaScript build
// the way a deployment runs it, on Postgres + Redis and on the embedded store, and (with the pg adapter)
// the same reference server on Postgres rotating every refresh token, as the service does (rotating-engine.mjs).
//   npx tsx bench/against-engine.ts                 (16 virtual users, 8 s per scenario)
//   BENCH_VUS=16 BENCH_SECONDS=8 BENCH_TARGETS=pg-redis,embedded BENCH_ADAPTERS=redis,pg BENCH_NODE_FLAGS=... npx tsx bench/against-engine.ts
//   BENCH_SCENARIOS=refresh,userinfo (a subset of flow,token,refresh,userinfo,revoke; all by default)
//   BENCH_ROUNDS=3 (the default): the whole comparison that many times; the summary gives medians
//   BENCH_OTHER_BUILD=/path/to/another/checkout: that checkout's build too, on Postgres + Redis, as a column
//     ("other-build") the service is compared with like an engine: a change measured against the code before it
// Postgres (BENCH_POSTGRES_ADMIN_URL, a database it may create `signin_bench` in) and Redis (BENCH_REDIS_URL) must run.
// Prints the harness's table of each round, then the figures the README's benchmark section quotes (the
// median of the rounds); the raw results go to bench/results/against-engine-<round>.json, and the summary, as
// data, to bench/results/<the run's start, ISO 8601 basic format>.json (its fields: bench/results/README.md).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { median, runFigures, spreadOf, summarize, type Cell, type Round } from './harness-summary.ts';
import { idleRssMiB } from './idle-memory.ts';
import { countSetting } from './settings.ts';
import { clearBenchKeys } from './storage.ts';

const project = resolve(import.meta.dirname, '..');
const harness = resolve(process.env.OIDC_BENCH_DIR ?? join(project, '..', 'shared', 'bench'));
const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const vus = process.env.BENCH_VUS ?? '16';
const seconds = process.env.BENCH_SECONDS ?? '8';
const targets = (process.env.BENCH_TARGETS ?? 'pg-redis,embedded').split(',');
const adapters = process.env.BENCH_ADAPTERS ?? 'redis,pg';
// The Node options the service runs under (BENCH_NODE_FLAGS to compare others).
const nodeFlags = process.env.BENCH_NODE_FLAGS ?? '';
const rounds = countSetting('BENCH_ROUNDS', 3);
// Every server of a run, the harness's and the service, runs on the Node that runs this script, whatever
// `node` the PATH finds first: the same engine on two Node versions is not the same engine (Node 20 runs
// AsyncLocalStorage on promise hooks, which Node 24 no longer needs).
const node = process.execPath;
const scenarios = process.env.BENCH_SCENARIOS ? ['--scenarios', process.env.BENCH_SCENARIOS] : [];
const otherBuild = process.env.BENCH_OTHER_BUILD ? resolve(process.env.BENCH_OTHER_BUILD) : undefined;
const REDIRECT_URI = 'https://127.0.0.1:9999/cb';
const REDIS_PREFIX = 'signin-bench:';
const OTHER_REDIS_PREFIX = 'signin-bench-other:';
const PASSWORD = 'une longue phrase de passe pour le banc';

const work = mkdtempSync(join(tmpdir(), 'signin-bench-'));
const secret = () => randomBytes(32).toString('base64url');
const secrets = { cookieKeys: [secret()], pairwiseSalt: secret(), keyEncryptionKey: secret() };

interface Target {
  label: string;
  port: number;
  storage: Record<string, unknown>;
  /** The checkout whose build serves it: this one, or BENCH_OTHER_BUILD's. */
  checkout: string;
}

async function main(): Promise<void> {
  const started = new Date();
  if (!spawnSync(node, [join(harness, 'run.mjs'), '--help']).stdout)
    throw new Error(`no benchmark harness at ${harness} (set OIDC_BENCH_DIR)`);
  for (const checkout of [project, ...(otherBuild ? [otherBuild] : [])]) {
    console.log(`building the JavaScript (npm run build) in ${checkout}…`);
    execFileSync('npm', ['run', '-s', 'build'], { cwd: checkout, stdio: 'inherit' });
  }

  const pgRedis = async (database: string, keyPrefix: string) => {
    // Redis starts empty too: the last run's keys go, rather than stay until they expire.
    await clearBenchKeys(redisUrl, keyPrefix);
    return { kind: 'postgres', postgres: { url: await freshDatabase(database) }, redis: { url: redisUrl, keyPrefix } };
  };
  const chosen: Target[] = [];
  if (targets.includes('pg-redis'))
    chosen.push({ label: 'ours-pg-redis', port: 4770, storage: await pgRedis('signin_bench', REDIS_PREFIX), checkout: project });
  if (targets.includes('embedded'))
    chosen.push({ label: 'ours-embedded', port: 4771, storage: { kind: 'embedded', dataDir: join(work, 'embedded') }, checkout: project });
  // Not named "ours-…": the summary gives the service's figures as multiples of this column's, as of an engine's.
  if (otherBuild)
    chosen.push({
      label: 'other-build',
      port: 4772,
      storage: await pgRedis('signin_bench_other', OTHER_REDIS_PREFIX),
      checkout: otherBuild,
    });
  const ours = chosen.map(prepare);
  // Beside the harness's own engine on Postgres, the same engine rotating every refresh token, as the
  // service does: what the refresh rule costs the engine itself (rotating-engine.mjs).
  const extra = adapters.split(',').includes('pg') ? [...ours, await rotatingEngine()] : ours;
  // At rest, before any load: the service as deployed (JavaScript build), and the bare engine on Redis,
  // started as many times as there are rounds (one start's figure moves by several MiB).
  const reference = {
    cmd: node,
    args: ['reference/server.mjs', '--port', '3199', '--adapter', 'redis', '--interaction', 'form'],
    cwd: harness,
    issuer: 'http://127.0.0.1:3199',
  };
  const starts = [
    ...ours.map((target) => {
      const { cmd, args, cwd, env } = target.start as { cmd: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv };
      return { label: String(target.label), start: { cmd, args, cwd, env, issuer: String(target.issuer) } };
    }),
    { label: 'bare engine on Redis', start: reference },
  ];
  const idle: string[] = [];
  const idleMiB: Record<string, number[]> = {};
  for (const { label, start } of starts) {
    const mib: number[] = [];
    for (let i = 0; i < rounds; i += 1) mib.push(await idleRssMiB(start));
    const range = mib.length > 1 ? ` (${Math.min(...mib).toFixed(0)}–${Math.max(...mib).toFixed(0)})` : '';
    idle.push(`${label}: ${median(mib)!.toFixed(0)} MiB${range}`);
    idleMiB[start === reference ? 'ref-redis-form' : label] = mib; // under the harness's name for that server
  }
  const extraFile = join(work, 'ours.json');
  writeFileSync(extraFile, JSON.stringify(extra, null, 2));

  const resultsDir = join(project, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const done: Round[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const out = join(resultsDir, `against-engine-${round}.json`);
    const args = [
      'bench-reference.mjs',
      '--adapters',
      adapters,
      '--interaction',
      'form',
      '--extra-targets',
      extraFile,
      '--seconds',
      seconds,
      '--vus',
      vus,
      ...scenarios,
      '--json',
      out,
    ];
    console.log(`round ${round} of ${rounds}: node ${args.join(' ')}   (in ${harness})`);
    execFileSync(node, args, { cwd: harness, stdio: 'inherit' });
    done.push(JSON.parse(readFileSync(out, 'utf8')) as Round);
  }
  const summary = [
    summarize(done),
    `\nresident memory at rest${rounds > 1 ? ` (median of ${rounds} starts, lowest–highest)` : ''}: ${idle.join(', ')}`,
  ];
  for (const text of summary) console.log(text);
  const stamp = started
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
  writeFileSync(join(resultsDir, `${stamp}.json`), `${JSON.stringify(runRecord(started, done, idleMiB, summary.join('\n')), null, 2)}\n`);
}

/** A figure as the result files keep it: a number, or its median with the lowest and highest over the rounds. */
function figure(
  values: (number | undefined)[],
  round?: (n: number) => number,
): number | { median: number; min: number; max: number } | undefined {
  const s = spreadOf(values);
  if (s === undefined) return undefined;
  const r = round ?? ((n: number) => n);
  return s.count > 1 ? { median: r(s.median), min: r(s.min), max: r(s.max) } : r(s.median);
}

/**
 * The summary as data (bench/results/README.md): the figures `summarize` printed (harness-summary.ts computes
 * them once), with memory at rest and every round's own figures.
 */
function runRecord(started: Date, done: Round[], idleMiB: Record<string, number[]>, summary: string): Record<string, unknown> {
  const { cells, peakMb, multiples } = runFigures(done);
  const four = (n: number) => Number(n.toPrecision(4));
  const byCell = <T>(make: (cell: Cell, scenario: string) => T) =>
    Object.fromEntries(
      Object.entries(cells).map(([scenario, byTarget]) => [
        scenario,
        Object.fromEntries(Object.entries(byTarget).map(([target, cell]) => [target, make(cell, scenario)])),
      ]),
    );
  return {
    benchmark: 'against-engine',
    date: started.toISOString().slice(0, 10),
    time: started.toISOString(),
    machine: { cpu: cpus()[0]?.model, cores: cpus().length },
    node: process.version,
    settings: {
      rounds,
      vus: Number(vus),
      seconds: Number(seconds),
      targets,
      adapters: adapters.split(','),
      ...(process.env.BENCH_SCENARIOS ? { scenarios: process.env.BENCH_SCENARIOS.split(',') } : {}),
      ...(nodeFlags ? { node_flags: nodeFlags } : {}),
      ...(otherBuild ? { other_build: otherBuild } : {}),
    },
    results: byCell((cell) => ({ rate_per_s: median(cell.rates), cpu_ms_per_op: median(cell.cpus), errors: cell.errors })),
    token_p99_ms: Object.fromEntries(Object.entries(cells.flow ?? {}).map(([target, cell]) => [target, figure(cell.tokenP99s)])),
    idle_rss_mib: Object.fromEntries(Object.entries(idleMiB).map(([server, mib]) => [server, figure(mib)])),
    peak_rss_mb: Object.fromEntries(Object.entries(peakMb).map(([server, mb]) => [server, mb > 0 ? mb : undefined])),
    multiples: Object.fromEntries(
      Object.entries(multiples).map(([mine, byScenario]) => [
        mine,
        Object.fromEntries(
          Object.entries(byScenario).map(([scenario, byOther]) => [
            scenario,
            Object.fromEntries(
              Object.entries(byOther).map(([other, m]) => [
                other,
                { cpu: figure(m.cpu, four), throughput_pct: figure(m.throughputPct, four) },
              ]),
            ),
          ]),
        ),
      ]),
    ),
    per_round: byCell((cell, scenario) => ({
      rate_per_s: cell.rates,
      cpu_ms_per_op: cell.cpus,
      ...(scenario === 'flow' ? { token_p99_ms: cell.tokenP99s } : {}),
    })),
    summary,
  };
}

/** An empty database of that name, for a run that starts from nothing. */
async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** A config file, the schema, a verified user and a `web` application for one target; its harness entry. */
function prepare(target: Target): Record<string, unknown> {
  const config = join(work, `${target.label}.json`);
  const many = { points: 100_000_000, windowSeconds: 60 };
  writeFileSync(
    config,
    JSON.stringify({
      issuer: `http://127.0.0.1:${target.port}`,
      port: target.port,
      secrets,
      storage: target.storage,
      // A deployment's log: JSON lines (one per request), as production writes them.
      log: { level: 'info', pretty: false },
      rateLimit: { loginPerAccount: many, loginPerIp: many, clientAuthPerIp: many, clientAuthPerClient: many },
      mail: { outbox: join(work, 'outbox') },
    }),
  );
  const signin = (args: string[], input = '') =>
    execFileSync(node, [join(target.checkout, 'dist/src/cli/entry.js'), ...args, '--config', config], {
      cwd: target.checkout,
      input,
      encoding: 'utf8',
    });
  signin(['migrate']);
  const email = `banc.${target.label}@example.org`;
  signin(['user', 'create', '--email', email, '--username', `banc_${target.port}`, '--first-name', 'Banc', '--verified'], `${PASSWORD}\n`);
  const client = JSON.parse(
    signin([
      'client',
      'create',
      '--name',
      'Banc',
      '--description',
      'Banc d’essai',
      '--type',
      'web',
      '--redirect-uri',
      REDIRECT_URI,
      '--scopes',
      'openid email profile',
      '--json',
    ]),
  ) as { client_id: string; client_secret: string };
  return {
    label: target.label,
    issuer: `http://127.0.0.1:${target.port}`,
    client_id: client.client_id,
    client_secret: client.client_secret,
    redirect_uri: REDIRECT_URI,
    mode: 'form',
    username: email,
    password: PASSWORD,
    scope: 'openid email profile offline_access',
    prompt: 'consent',
    expect_refresh: true,
    aux_pids: auxPids(),
    // Where the service writes its request log: a deployment ships it somewhere; here, nowhere.
    start: {
      cmd: 'sh',
      args: ['-c', `exec '${node}' ${nodeFlags} dist/src/cli/entry.js serve --config ${config} > /dev/null`],
      cwd: target.checkout,
      env: { NODE_ENV: 'production' },
    },
  };
}

/** The harness's reference server on Postgres (its own database), with refresh-token rotation on. */
async function rotatingEngine(): Promise<Record<string, unknown>> {
  const port = 3190;
  const client = { client_id: 'bench-client', client_secret: `bench-secret-${secret()}`, redirect_uri: REDIRECT_URI };
  const user = { username: 'bench@example.com', password: PASSWORD };
  return {
    label: 'ref-pg-rotating',
    issuer: `http://127.0.0.1:${port}`,
    ...client,
    ...user,
    mode: 'form',
    aux_pids: auxPids(),
    start: {
      cmd: node,
      args: [
        '--import',
        join(project, 'bench', 'rotating-engine.mjs'),
        'reference/server.mjs',
        '--port',
        String(port),
        '--adapter',
        'pg',
        '--pg-url',
        await freshDatabase('engine_rotating_bench'),
        '--interaction',
        'form',
        '--hash',
        'argon2id',
        '--sig-alg',
        'RS256',
        '--client-id',
        client.client_id,
        '--client-secret',
        client.client_secret,
        '--redirect-uri',
        REDIRECT_URI,
        '--username',
        user.username,
        '--password',
        user.password,
        '--quiet',
      ],
      cwd: harness,
      // As the harness starts its own reference servers.
      env: { NODE_ENV: 'development' },
    },
  };
}

/** Redis and the Postgres postmaster, for the harness's column of the stores' own CPU. */
function auxPids(): number[] {
  const pid = (pattern: string) => Number(spawnSync('pgrep', ['-o', '-f', pattern], { encoding: 'utf8' }).stdout.trim()) || undefined;
  return [pid('redis-server'), pid('postgres -D|postgres: .*main|bin/postgres')].filter((p): p is number => p !== undefined);
}

await main();

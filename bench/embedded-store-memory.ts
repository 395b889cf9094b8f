// Memory of the standalone server on the embedded store (PGlite), at a first start (an empty data
// folder: the database is created and migrated) and at a restart on the same folder. For each: the peak
// (the process's resident high-water mark, VmHWM) and the resident memory at rest a few seconds after the
// discovery document was answered (VmRSS). Linux only (reads /proc). Writes bench/results/*.json.
//
//   npx tsx bench/embedded-store-memory.ts [--rounds N] [--label NAME] [--node-option FLAG ...]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const PORT = 4871;
const ISSUER = `http://127.0.0.1:${PORT}`;
const SETTLE_MS = 5000;

interface StartMemory {
  peakMiB: number;
  restingMiB: number;
  /** From spawn to the first answered discovery document. */
  startMs: number;
}

const mib = (kib: string | undefined): number => Math.round(Number(kib ?? 0) / 1024);

function memoryOf(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { hwm: mib(/VmHWM:\s+(\d+)/.exec(status)?.[1]), rss: mib(/VmRSS:\s+(\d+)/.exec(status)?.[1]) };
}

/** Starts the server as an operator does (`signin serve`, one process), measures it, stops it. */
async function measureStart(configFile: string): Promise<StartMemory> {
  const began = Date.now();
  const child = spawn(process.execPath, [...nodeOptions, join(ROOT, 'bin/signin.js'), 'serve', '--config', configFile], {
    cwd: ROOT,
    env: { ...process.env, SIGNIN_CONFIG: '', PORT: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForDiscovery(child.pid!);
    const startMs = Date.now() - began;
    await sleep(SETTLE_MS);
    const { hwm, rss } = memoryOf(child.pid!);
    return { peakMiB: hwm, restingMiB: rss, startMs };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function waitForDiscovery(pid: number): Promise<void> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    try {
      const res = await fetch(`${ISSUER}/.well-known/openid-configuration`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    memoryOf(pid); // throws once the process is gone
    await sleep(100);
  }
  throw new Error(`${ISSUER} did not answer its discovery document within 120 s`);
}

function writeConfig(dir: string): string {
  const file = join(dir, 'signin.yaml');
  writeFileSync(
    file,
    [
      `issuer: "${ISSUER}"`,
      `port: ${PORT}`,
      'secrets:',
      '  cookieKeys: ["bench-cookie-key-0000000000000000000000000"]',
      '  pairwiseSalt: "bench-pairwise-salt-00000000000000000000000"',
      '  keyEncryptionKey: "bench-key-encryption-key-0000000000000000"',
      'storage:',
      '  kind: embedded',
      `  dataDir: "${join(dir, 'data')}"`,
      'mail:',
      `  outbox: "${join(dir, 'outbox')}"`,
      '',
    ].join('\n'),
  );
  return file;
}

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, label: { type: 'string' }, 'node-option': { type: 'string', multiple: true } },
});
/** Options of the server's Node process (e.g. a V8 flag under test). */
const nodeOptions = values['node-option'] ?? [];
const rounds = Number(values.rounds);
const first: StartMemory[] = [];
const restart: StartMemory[] = [];
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'signin-memory-'));
  try {
    const config = writeConfig(dir);
    first.push(await measureStart(config));
    restart.push(await measureStart(config));
    console.log(`round ${round + 1}: first start ${JSON.stringify(first.at(-1))}, restart ${JSON.stringify(restart.at(-1))}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (runs: StartMemory[]) => ({
  peakMiB: median(runs.map((r) => r.peakMiB)),
  restingMiB: median(runs.map((r) => r.restingMiB)),
  startMs: median(runs.map((r) => r.startMs)),
  runs,
});
const result = {
  bench: 'embedded-store-memory',
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model,
  label: values.label,
  nodeOptions,
  firstStart: summary(first),
  restart: summary(restart),
};
console.log(
  `first start: peak ${result.firstStart.peakMiB} MiB, at rest ${result.firstStart.restingMiB} MiB; ` +
    `restart: peak ${result.restart.peakMiB} MiB, at rest ${result.restart.restingMiB} MiB`,
);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const out = join(ROOT, 'bench/results', `embedded-store-memory-${result.date.slice(0, 10)}${values.label ? `-${values.label}` : ''}.json`);
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${out}`);

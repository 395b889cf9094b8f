// What the service's own layers cost on each request, over the engine they wrap: the same process serves
// the same engine twice, once alone (its own Koa app, with the service's configuration, adapters and
// caches) and once behind every layer of the service (request id and log, headers, input guard, limits,
// outage answers...), and a load generator in another process calls each in turn. The server's CPU per
// call (process.cpuUsage, so the load generator's own work is not counted) is compared within a few
// seconds on the same machine, which a run of two servers side by side cannot do as closely.
//   npx tsx bench/layers.ts                                   (embedded store, in memory)
//   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/bench BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/layers.ts
//   BENCH_ROUNDS=5 BENCH_SECONDS=5 BENCH_CONNECTIONS=16
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { median } from './harness-summary.ts';
import { countSetting } from './settings.ts';
import { benchStorage, clearBenchStorageKeys } from './storage.ts';
import { relyingParty } from '../test/support/relying-party.ts';
import { signIn } from '../test/support/flow.ts';
import { startTestService } from '../test/support/service.ts';

const rounds = countSetting('BENCH_ROUNDS', 5);
const seconds = countSetting('BENCH_SECONDS', 5);
const connections = countSetting('BENCH_CONNECTIONS', 16);

// The load generator: keep-alive connections, each sending its next request once the last is answered: a GET,
// or with a body, a form post.
const LOAD = `
const http = require('node:http');
const [url, header, body, seconds, connections] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const headers = header ? { authorization: header } : {};
if (body) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) });
const until = Date.now() + Number(seconds) * 1000;
let done = 0, failed = 0;
const one = () => new Promise((resolve) => {
  const req = http.request(url, { method: body ? 'POST' : 'GET', agent, headers }, (res) => { res.resume(); res.on('end', () => { if (res.statusCode === 200) done++; else failed++; resolve(); }); });
  req.on('error', () => { failed++; resolve(); });
  req.end(body || undefined);
});
const loop = async () => { while (Date.now() < until) await one(); };
Promise.all(Array.from({ length: Number(connections) }, loop)).then(() => { console.log(JSON.stringify({ done, failed })); agent.destroy(); });
`;

interface Call {
  header: string;
  /** A form body: the call is a POST. */
  body: string;
}

function load(url: string, call: Call, secs: number): Promise<{ done: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOAD, url, call.header, call.body, String(secs), String(connections)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { done: number; failed: number }) : reject(new Error(`load generator exited ${code}`)),
    );
  });
}

/** Server CPU microseconds per successful call while `url` is under load for `secs` seconds. */
async function cpuPerCall(url: string, call: Call, secs: number): Promise<number> {
  const before = process.cpuUsage();
  const { done, failed } = await load(url, call, secs);
  const used = process.cpuUsage(before);
  if (failed > 0 || done === 0) throw new Error(`${url}: ${failed} calls failed, ${done} answered 200`);
  return (used.user + used.system) / done;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const storage = benchStorage();
await clearBenchStorageKeys(storage);
// The request log as a deployment writes it (JSON lines, buffered), to nowhere.
const logDestination = pino.destination({ dest: '/dev/null', sync: true, minLength: 4096 });
const svc = await startTestService({ storage, log: { level: 'info', pretty: false } }, { migrations: 'auto', logDestination });
const client = await svc.createClient();
const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
const engineAlone = createServer(svc.service.provider.callback());
const engineUrl = await listen(engineAlone);
console.log(
  `storage: ${storage.kind}${'redis' in storage ? ' + redis' : ''}, ${connections} connections, ${rounds} rounds of ${seconds} s per side, node ${process.version}`,
);

// Revocation as the harness mostly sends it: a form post with the application's secret, of an access token
// already ended with its grant (the first revocation of a grant's token ends all the others). Another
// sign-in's token, so that the userinfo calls keep theirs.
const ended = (await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser())).tokens.access_token;
const revocation = new URLSearchParams({
  token: ended,
  token_type_hint: 'access_token',
  client_id: client.clientId,
  client_secret: client.clientSecret,
});
await fetch(`${svc.url}/oauth/token/revoke`, { method: 'POST', body: revocation });
const cases = [
  { name: 'userinfo', path: '/oauth/userinfo', call: { header: `Bearer ${tokens.access_token}`, body: '' } },
  { name: 'jwks', path: '/oauth/jwks', call: { header: '', body: '' } },
  { name: 'revocation', path: '/oauth/token/revoke', call: { header: '', body: revocation.toString() } },
];
for (const { name, path, call } of cases) {
  await cpuPerCall(`${engineUrl}${path}`, call, 2); // warm both paths up before measuring
  await cpuPerCall(`${svc.url}${path}`, call, 2);
  const alone: number[] = [];
  const whole: number[] = [];
  const layers: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const a = await cpuPerCall(`${engineUrl}${path}`, call, seconds);
    const w = await cpuPerCall(`${svc.url}${path}`, call, seconds);
    alone.push(a);
    whole.push(w);
    layers.push(w - a);
  }
  const fmt = (values: number[]) =>
    `${median(values)!.toFixed(1)} µs (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  console.log(
    `${name.padEnd(9)} engine alone ${fmt(alone)}   whole service ${fmt(whole)}   the service's layers ${fmt(layers)}, ` +
      `${median(whole.map((w, i) => w / alone[i]))!.toFixed(2)}× the engine alone   (server CPU per call, median of ${rounds}, lowest–highest)`,
  );
}

await new Promise<void>((resolve) => engineAlone.close(() => resolve()));
await svc.stop();
logDestination.flushSync();

// `signin serve` stopped by SIGTERM with no load balancer in front: clients keep connecting and sending
// requests through the drain and past the moment the listener closes, over kept-alive connections and
// fresh ones. Every request on a connection the server accepted gets its answer: none is reset or hung
// up. A connection refused once the listener is closed is fine, and counted apart.
//
// Which connections the server accepted is read from the server itself (Node's `net.server.socket`
// diagnostics channel, in a preloaded module that lists their client ports at exit), so that a reset can
// be told from one of the kernel's: a connection that completed its handshake in the kernel but was never
// accepted by the process is reset by Linux when the listener closes, whatever the process does.
import { Agent, request, type ClientRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startChild } from './child-server.ts';

const BIN = fileURLToPath(new URL('../../bin/signin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'signin-drain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Loaded in the server before anything else: the client port of every connection it accepts, written at exit. */
const ACCEPT_LOG = `data:text/javascript,${encodeURIComponent(`
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
const ports = [];
subscribe('net.server.socket', ({ socket }) => ports.push(socket.remotePort));
process.on('exit', () => writeFileSync(process.env.SIGNIN_TEST_ACCEPTED, ports.join('\\n')));
`)}`;

const PATHS = ['/.well-known/openid-configuration', '/oauth/jwks', '/healthz'];

type Outcome =
  { kind: 'answered'; status: number; afterSignal: boolean } | { kind: 'refused' } | { kind: 'failed'; error: string; port?: number };

interface Tally {
  answered: number;
  answeredAfterSignal: number;
  statuses: Record<number, number>;
  refused: number;
  /** Reset or hung up on a connection the server process accepted: what must never happen. */
  resetAfterAccept: string[];
  /** Reset by the kernel when the listener closed: the process never accepted the connection. */
  resetBeforeAccept: number;
  other: string[];
}

/** Local port of each connection the clients opened, kept from its `connect` (a destroyed socket forgets it). */
const localPorts = new WeakMap<Socket, number>();

/** When each connection the clients opened completed its handshake. */
const connectedAt = new WeakMap<Socket, number>();

function send(port: number, path: string, agent: Agent, signalled: () => boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const sent = performance.now();
    let socket: Socket | undefined;
    let reused = false;
    // What a failure message needs to tell the cases apart: a new or a reused connection, and its timing.
    const failed = (error: string): Outcome => {
      const connected = socket && connectedAt.get(socket);
      const when = connected === undefined ? 'never connected' : `connected ${Math.round(sent - connected)} ms before the request`;
      const detail = `${error}, ${reused ? 'reused' : 'new'} connection ${when}, failed ${Math.round(performance.now() - sent)} ms after it`;
      return { kind: 'failed', error: detail, port: socket && localPorts.get(socket) };
    };
    const req: ClientRequest = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0, afterSignal: signalled() }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(failed(error.code ?? error.message)));
    });
    req.on('socket', (s: Socket) => {
      socket = s;
      reused = !s.connecting;
      if (s.connecting)
        s.once('connect', () => {
          localPorts.set(s, s.localPort ?? 0);
          connectedAt.set(s, performance.now());
        });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      else resolve(failed(`${error.code ?? ''} ${error.message}`));
    });
    req.end();
  });
}

/** Starts the server, runs the clients across a SIGTERM, and sorts every request's outcome. */
async function stopUnderLoad(drainSeconds: number): Promise<Tally & { exitCode: number | null; output: string }> {
  const port = await freePort();
  const config = join(dir, `signin-${drainSeconds}.yaml`);
  const accepted = join(dir, `accepted-${drainSeconds}.txt`);
  writeFileSync(
    config,
    [
      `issuer: http://127.0.0.1:${port}`,
      `port: ${port}`,
      'secrets:',
      `  cookieKeys: ["${'c'.repeat(40)}"]`,
      `  pairwiseSalt: "${'s'.repeat(40)}"`,
      'storage:',
      '  kind: embedded',
      `  dataDir: ${JSON.stringify(join(dir, `data-${drainSeconds}`))}`,
      'shutdown:',
      `  drainSeconds: ${drainSeconds}`,
    ].join('\n'),
  );
  const server = startChild(process.execPath, ['--import', ACCEPT_LOG, BIN, 'serve', '--config', config], {
    env: { ...process.env, SIGNIN_CONFIG: '', SIGNIN_TEST_ACCEPTED: accepted },
  });
  await server.waitFor('listening');

  let signalled = false;
  let exited = false;
  const outcomes: Outcome[] = [];
  const client = async (agent: Agent, offset: number): Promise<void> => {
    for (let i = offset; !exited; i += 1) {
      const outcome = await send(port, PATHS[i % PATHS.length], agent, () => signalled);
      outcomes.push(outcome);
      // Knocking again at once on a closed port would only spin.
      if (outcome.kind === 'refused') await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  // Kept-alive connections, each agent shared by two clients; a pool with more sockets than clients,
  // so that some sit idle when the signal comes; and clients that connect anew for every request.
  const keptAlive = [new Agent({ keepAlive: true, maxSockets: 2 }), new Agent({ keepAlive: true, maxSockets: 2 })];
  const roomy = new Agent({ keepAlive: true, maxSockets: 6 });
  const fresh = [new Agent({ keepAlive: false }), new Agent({ keepAlive: false })];
  await Promise.all(Array.from({ length: 6 }, (_, i) => send(port, PATHS[i % PATHS.length], roomy, () => false)));
  const load = Promise.all([
    ...keptAlive.flatMap((agent) => [client(agent, 0), client(agent, 1)]),
    client(roomy, 2),
    client(roomy, 0),
    ...fresh.map((agent, i) => client(agent, i)),
  ]);
  while (outcomes.filter((o) => o.kind === 'answered').length < 100) await new Promise((resolve) => setTimeout(resolve, 20));

  server.child.kill('SIGTERM');
  signalled = true;
  const exitCode = await server.exited;
  // Clients still knocking after the exit are refused: enough of them to show the close was under load.
  await new Promise((resolve) => setTimeout(resolve, 100));
  exited = true;
  await load;
  for (const agent of [...keptAlive, roomy, ...fresh]) agent.destroy();

  const acceptedPorts = new Set(readFileSync(accepted, 'utf8').split('\n').filter(Boolean).map(Number));
  const tally: Tally = {
    answered: 0,
    answeredAfterSignal: 0,
    statuses: {},
    refused: 0,
    resetAfterAccept: [],
    resetBeforeAccept: 0,
    other: [],
  };
  for (const outcome of outcomes) {
    if (outcome.kind === 'answered') {
      tally.answered += 1;
      if (outcome.afterSignal) tally.answeredAfterSignal += 1;
      tally.statuses[outcome.status] = (tally.statuses[outcome.status] ?? 0) + 1;
    } else if (outcome.kind === 'refused') {
      tally.refused += 1;
    } else if (outcome.port === undefined) {
      // Reset during the handshake, the listener closing under it: the client never had a connection.
      if (outcome.error.startsWith('ECONNRESET ')) tally.resetBeforeAccept += 1;
      else tally.other.push(outcome.error);
    } else if (acceptedPorts.has(outcome.port)) {
      tally.resetAfterAccept.push(`${outcome.error} (client port ${outcome.port})`);
    } else {
      tally.resetBeforeAccept += 1;
    }
  }
  return { ...tally, exitCode, output: server.output() };
}

describe('signin serve stopped under load, with no load balancer in front', () => {
  for (const drainSeconds of [1, 0]) {
    it(`answers every request on a connection it accepted (drain of ${drainSeconds} s)`, async () => {
      const result = await stopUnderLoad(drainSeconds);
      const { output, ...figures } = result;
      console.log(`drain ${drainSeconds} s: ${JSON.stringify({ ...figures, resetAfterAccept: figures.resetAfterAccept.length })}`);

      expect(result.exitCode, output).toBe(0);
      expect(result.resetAfterAccept).toEqual([]);
      expect(result.other).toEqual([]);
      expect(result.statuses).toEqual({ 200: result.answered });
      // The clients were sending through the stop: answered after the signal, refused once it closed.
      expect(result.answeredAfterSignal).toBeGreaterThan(0);
      expect(result.refused).toBeGreaterThan(0);
    }, 60_000);
  }
});

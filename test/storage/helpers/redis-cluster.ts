// A real three-node Redis Cluster for the tests: three `redis-server` processes in cluster mode on
// loopback ports, joined by `redis-cli --cluster create`, removed again by stop(). A machine without
// redis-server fails these tests (with what to install), it never skips them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisConfig } from '../../../adapters/storage-config.ts';

export interface LocalCluster {
  /** The seed nodes, as `storage.redis.cluster` lists them. */
  nodes: string[];
  config(keyPrefix: string): RedisConfig;
  /** Stops the node on `port` alone, as a crashed master. */
  stopNode(port: number): Promise<void>;
  /** Kills the node on `port` with SIGKILL (kill -9): no goodbye to the other nodes. */
  killNode(port: number): Promise<void>;
  /** `redis-cli -p <port> <args>`'s output, or '' when the node does not answer. */
  cli(port: number, ...args: string[]): string;
  stop(): Promise<void>;
}

export interface LocalClusterOptions {
  /** Replicas per master (0 by default): with 1, six nodes, the three after the masters their replicas. */
  replicas?: 0 | 1;
  /** `cluster-node-timeout`: how long a silent master has before its replica takes over (Redis's default: 15 s). */
  nodeTimeoutMs?: number;
}

const SERVER = process.env.SIGNIN_TEST_REDIS_SERVER ?? 'redis-server';
const CLI = process.env.SIGNIN_TEST_REDIS_CLI ?? 'redis-cli';

/** Starts the cluster on `firstPort` and the ports after it (two, or five with replicas); each test file uses its own range. */
export async function startLocalCluster(firstPort: number, options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const replicas = options.replicas ?? 0;
  for (const tool of [SERVER, CLI]) {
    if (spawnSync(tool, ['--version']).error) {
      throw new Error(
        `${tool} is needed for the Redis Cluster tests (e.g. apt-get install redis-server, or set SIGNIN_TEST_REDIS_SERVER / SIGNIN_TEST_REDIS_CLI)`,
      );
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'signin-cluster-'));
  const ports = Array.from({ length: 3 * (1 + replicas) }, (_, i) => firstPort + i);
  const processes: ChildProcess[] = [];
  const stopProcess = async (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    // A master that has lived through a failover may keep waiting after SIGTERM: nothing here is
    // persisted, so a node still up after 3 s is killed.
    const killLater = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(killLater);
  };
  const stop = async () => {
    await Promise.all(processes.map((child) => stopProcess(child)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const child = spawn(
        SERVER,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
          '--dir',
          dir,
          ...(options.nodeTimeoutMs === undefined ? [] : ['--cluster-node-timeout', String(options.nodeTimeoutMs)]),
          // Replicas sync at once rather than after Redis's default 5 s delay.
          ...(replicas > 0 ? ['--repl-diskless-sync-delay', '0'] : []),
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      processes.push(child);
    }
    for (const port of ports) await waitFor(() => cli(port, 'ping') === 'PONG', `redis-server on port ${port}`);
    const created = spawnSync(
      CLI,
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes'],
      { encoding: 'utf8' },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    for (const port of ports)
      await waitFor(() => cli(port, 'cluster', 'info').includes('cluster_state:ok'), `cluster_state:ok on port ${port}`);
    // A replica takes over only once it has its master's data: wait until each one has synced.
    for (const port of ports) {
      const synced = () => /role:master|master_link_status:up/.test(cli(port, 'info', 'replication'));
      await waitFor(synced, `replica in sync on port ${port}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const nodes = ports.map((p) => `127.0.0.1:${p}`);
  const stopNode = (port: number) => stopProcess(processes[ports.indexOf(port)]);
  const killNode = (port: number) => stopProcess(processes[ports.indexOf(port)], 'SIGKILL');
  return { nodes, config: (keyPrefix) => ({ cluster: nodes, keyPrefix, commandTimeoutMs: 2000 }), stopNode, killNode, cli, stop };
}

function cli(port: number, ...args: string[]): string {
  const result = spawnSync(CLI, ['-p', String(port), ...args], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : '';
}

/** Polls a condition the cluster reaches on its own (a process listening, slots agreed). */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (check()) return;
    await sleep(50);
  }
  throw new Error(`Redis Cluster test: no ${what} after 10 s`);
}

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
  stop(): Promise<void>;
}

const SERVER = process.env.SIGNIN_TEST_REDIS_SERVER ?? 'redis-server';
const CLI = process.env.SIGNIN_TEST_REDIS_CLI ?? 'redis-cli';

/** Starts the cluster on `firstPort` and the two ports after it; each test file uses its own range. */
export async function startLocalCluster(firstPort: number): Promise<LocalCluster> {
  for (const tool of [SERVER, CLI]) {
    if (spawnSync(tool, ['--version']).error) {
      throw new Error(
        `${tool} is needed for the Redis Cluster tests (e.g. apt-get install redis-server, or set SIGNIN_TEST_REDIS_SERVER / SIGNIN_TEST_REDIS_CLI)`,
      );
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'signin-cluster-'));
  const ports = [firstPort, firstPort + 1, firstPort + 2];
  const processes: ChildProcess[] = [];
  const stopProcess = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  const stop = async () => {
    await Promise.all(processes.map(stopProcess));
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
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      processes.push(child);
    }
    for (const port of ports) await waitFor(() => cli(port, 'ping') === 'PONG', `redis-server on port ${port}`);
    const created = spawnSync(
      CLI,
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8' },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    for (const port of ports)
      await waitFor(() => cli(port, 'cluster', 'info').includes('cluster_state:ok'), `cluster_state:ok on port ${port}`);
  } catch (error) {
    await stop();
    throw error;
  }
  const nodes = ports.map((p) => `127.0.0.1:${p}`);
  const stopNode = (port: number) => stopProcess(processes[ports.indexOf(port)]);
  return { nodes, config: (keyPrefix) => ({ cluster: nodes, keyPrefix, commandTimeoutMs: 2000 }), stopNode, stop };
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

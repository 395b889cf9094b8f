// podman as the container tests drive it: as root, with a containers.conf of their own (CONTAINERS_CONF),
// so that the machine's own settings neither help nor break them.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Outside the clone: kept between runs, so that only the first one builds the base image. */
export const CACHE_DIR = process.env.SIGNIN_CONTAINER_CACHE ?? '/var/cache/signin-container';

/** Where podman is, or why these tests cannot run here. */
export function podmanMissing(): string | undefined {
  if (spawnSync('podman', ['--version'], { env: env() }).status !== 0)
    return 'podman is not installed (apt-get install podman debootstrap runc)';
  if (spawnSync('debootstrap', ['--version']).status !== 0) return 'debootstrap is not installed (apt-get install debootstrap)';
  if (process.getuid?.() !== 0) return 'the container tests run podman as root';
  return undefined;
}

/**
 * The containers.conf the tests use. runc, because crun refuses a machine with hybrid cgroups (v1 and v2
 * mounted together); ulimits no higher than the hard limits of this process, which a container may not
 * exceed (podman's default asks for more open files than some machines allow).
 */
function containersConf(): string {
  const file = join(CACHE_DIR, 'containers.conf');
  const hardNofile = Number(execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim()) || 1024;
  const nofile = Math.min(hardNofile, 65536);
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(
    file,
    [
      '[containers]',
      `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=32768:32768"]`,
      '[engine]',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      '',
    ].join('\n'),
  );
  return file;
}

let confFile: string | undefined;
function env(): NodeJS.ProcessEnv {
  confFile ??= containersConf();
  return { ...process.env, CONTAINERS_CONF: confFile };
}

/** Runs podman and returns its standard output; throws with its standard error when it fails. */
export function podman(args: string[], options: { input?: string; timeoutMs?: number } = {}): string {
  const result = podmanResult(args, options);
  if (result.status !== 0) {
    throw new Error(`podman ${args.join(' ')} exited with ${result.status}:\n${result.stderr}\n${result.stdout}`.slice(0, 8000));
  }
  return result.stdout;
}

export function podmanResult(args: string[], options: { input?: string; timeoutMs?: number } = {}): SpawnSyncReturns<string> {
  return spawnSync('podman', args, {
    env: env(),
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeoutMs ?? 600_000,
  });
}

export function imageExists(tag: string): boolean {
  return podmanResult(['image', 'exists', tag]).status === 0;
}

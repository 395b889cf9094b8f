// The embedded store belongs to one process at a time: two processes writing one data folder would corrupt
// it. A lock file says who has it: the owner's pid and host name. On the same host a lock left by a dead
// process is taken over at once. A lock from another host (another container on a shared volume, where
// every container's first process is pid 1) cannot be checked through its pid, so its owner touches the
// file every few seconds, and a lock not touched for a while is taken as left by a stopped container.
import { hostname } from 'node:os';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/** How often the owner shows it is alive, and how long a lock from another host stays good without it. */
const HEARTBEAT_MS = 5_000;
const STALE_AFTER_MS = 6 * HEARTBEAT_MS;

interface Owner {
  pid: number;
  host: string;
}

/** Takes the folder's lock; returns what releases it. Throws DataDirInUseError while another process has it. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'signin.lock');
  const me: Owner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, `${me.pid}@${me.host}`, { flag: 'wx' });
      const heartbeat = setInterval(() => touch(file), HEARTBEAT_MS);
      heartbeat.unref();
      return () => {
        clearInterval(heartbeat);
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = ownerOf(file);
      if (owner && heldByAnother(owner, me, file)) {
        const where = owner.host === me.host ? '' : ` on host ${owner.host}`;
        throw new DataDirInUseError(
          `the embedded data folder ${resolve(dataDir)} is in use by process ${owner.pid}${where} (a running server?); stop it first`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`cannot lock the embedded data folder ${resolve(dataDir)}`);
}

function ownerOf(file: string): Owner | undefined {
  try {
    // `pid@host`; a lock written by an earlier version holds the pid alone, on this host.
    const [pid, host] = readFileSync(file, 'utf8').trim().split('@');
    const parsed = Number.parseInt(pid ?? '', 10);
    return parsed > 0 ? { pid: parsed, host: host || hostname() } : undefined;
  } catch {
    return undefined;
  }
}

function heldByAnother(owner: Owner, me: Owner, file: string): boolean {
  if (owner.host === me.host) return owner.pid !== me.pid && isAlive(owner.pid);
  try {
    return Date.now() - statSync(file).mtimeMs < STALE_AFTER_MS;
  } catch {
    return false;
  }
}

function touch(file: string): void {
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    // Removed under us (an operator cleaning up): the next start will say so if two run at once.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

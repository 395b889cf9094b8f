// The embedded store's folder lock, as a second server on the same folder meets it: on this host, and from
// another container sharing the volume (every container's first process is pid 1).
import { mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../adapters/sql/data-dir-lock.ts';

const folder = () => mkdtempSync(join(tmpdir(), 'signin-lock-'));
const lockFile = (dir: string) => join(dir, 'signin.lock');

afterEach(() => vi.useRealTimers());

describe('the embedded data folder lock', () => {
  it('names this process and host, and is gone once released', () => {
    const dir = folder();
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(`${process.pid}@${hostname()}`);
    release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('is refused while a live process of this host holds it, and taken from a dead one', () => {
    const dir = folder();
    writeFileSync(lockFile(dir), `${process.ppid}@${hostname()}`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    // A pid no process has (above the kernel's pid_max).
    writeFileSync(lockFile(dir), `${2 ** 22 + 1}@${hostname()}`);
    lockDataDir(dir)();
  });

  it('is refused while another host keeps it fresh, even with the same pid', () => {
    const dir = folder();
    writeFileSync(lockFile(dir), `${process.pid}@another-container`);
    expect(() => lockDataDir(dir)).toThrow(/in use by process \d+ on host another-container/);
  });

  it('is taken from another host that stopped touching it', () => {
    const dir = folder();
    writeFileSync(lockFile(dir), '1@another-container');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lockFile(dir), minuteAgo, minuteAgo);
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(`${process.pid}@${hostname()}`);
    release();
  });

  it('is touched by its owner while held', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const dir = folder();
    const release = lockDataDir(dir);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile(dir), old, old);
    vi.advanceTimersByTime(5_000);
    expect(Date.now() - statSync(lockFile(dir)).mtimeMs).toBeLessThan(10_000);
    release();
  });
});

// What reaches standard output, and when: routine lines may wait a second in the buffer, but a
// security event or a warning is written at once (a process killed right after keeps it), and nothing
// buffered is lost when the process exits, normally or on an uncaught error. Each case runs the real
// logger in a child process and reads its standard output.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const logger = join(process.cwd(), 'src', 'log', 'logger.ts');

/** Runs `body` (with `logger`, a JSON stdout logger, in scope) and collects the lines it printed. */
function run(body: string, { killAfterMs }: { killAfterMs?: number } = {}): Promise<Array<Record<string, unknown>>> {
  const script = `import { createLogger } from ${JSON.stringify(logger)};
    const logger = createLogger({ level: 'info', pretty: false });
    ${body}`;
  // Node itself with tsx's loader (not the tsx command, whose own child would outlive a SIGKILL).
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    child.on('close', () => {
      clearTimeout(timer);
      resolve(
        out
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
    });
  });
}

describe('standard output', () => {
  it('writes a security event at once, with the routine lines before it, in order', async () => {
    const lines = await run(`
      logger.info({ msg: 'request', route: '/oauth/userinfo' });
      logger.info({ event: 'sign_in.success', outcome: 'success' });
      process.kill(process.pid, 'SIGKILL');`);
    expect(lines.map((line) => line.msg ?? line.event)).toEqual(['request', 'sign_in.success']);
  });

  it('writes an event at once without waiting for the disk (no fsync, which stalled every sign-in on a log file)', async () => {
    const lines = await run(`
      const fs = (await import('node:fs')).default;
      let syncs = 0;
      const fsync = fs.fsyncSync;
      fs.fsyncSync = (fd) => { syncs += 1; return fsync(fd); };
      logger.info({ event: 'consent.granted', outcome: 'success' });
      logger.warn({ msg: 'housekeeping failed' });
      fs.writeSync(1, JSON.stringify({ syncs }) + '\\n');
      process.kill(process.pid, 'SIGKILL');`);
    expect(lines).toEqual([
      expect.objectContaining({ event: 'consent.granted' }),
      expect.objectContaining({ msg: 'housekeeping failed' }),
      { syncs: 0 },
    ]);
  });

  it('writes a warning at once', async () => {
    const lines = await run(`
      logger.warn({ msg: 'housekeeping failed' });
      process.kill(process.pid, 'SIGKILL');`);
    expect(lines.map((line) => line.msg)).toEqual(['housekeeping failed']);
  });

  it('loses no routine line when the process exits, nor when it dies of an uncaught error', async () => {
    const normal = await run(`logger.info({ msg: 'request', n: 1 }); process.exitCode = 0;`);
    expect(normal.map((line) => line.n)).toEqual([1]);
    const crashed = await run(`logger.info({ msg: 'request', n: 2 }); setTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(crashed.map((line) => line.n)).toEqual([2]);
  });

  it('writes routine lines within about a second while the process runs on', async () => {
    const lines = await run(`logger.info({ msg: 'request', n: 3 }); setInterval(() => {}, 1000);`, { killAfterMs: 3000 });
    expect(lines.map((line) => line.n)).toEqual([3]);
  });
});

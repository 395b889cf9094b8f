// A server started as its own process, as an operator starts it: what it prints, a way to wait for a
// line of it, and its exit code.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

export interface ChildServer {
  child: ChildProcess;
  output(): string;
  /** Resolves once the output contains `text`; rejects if the process exits first. */
  waitFor(text: string): Promise<void>;
  /** The exit code (null when ended by a signal it did not handle). */
  exited: Promise<number | null>;
}

export function startChild(command: string, args: string[], options: SpawnOptions = {}): ChildServer {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer): void => {
    out += chunk.toString();
    for (const check of waiters) check();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitFor(text) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!out.includes(text)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
        void exited.then((code) => {
          waiters.delete(check);
          reject(new Error(`exited with ${code} before printing "${text}":\n${out}`));
        });
      });
    },
  };
}

/** A TCP port free right now on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The threads password hashes run on. Each argon2id hash keeps a core busy for about 20 ms; on libuv's
// thread pool, which the engine's token signing shares, a login burst made every token response wait
// behind hashes. So hashes run on threads of their own, started when the first one is asked for, which
// lower their own CPU priority to the least (nice 19, on Linux, where a thread's priority is its own):
// the scheduler then runs them only on CPU time that the event loop, token signing and the databases
// leave. At most one less than the number of cores hash at once (at least one), and a thread left
// without work for a minute ends, giving its memory back.
//
// Not in a process that runs the embedded store: a worker thread beside PGlite's WebAssembly can make
// V8 abort the process (adapters/sql/webassembly-store.ts). There, the threads are stopped before PGlite
// loads, and hashes run on libuv's pool as before, with the same bound.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { hash, verify } from '@node-rs/argon2';
import { whenWebAssemblyStoreLoads } from '../../adapters/sql/webassembly-store.ts';

export type HashJob = { op: 'hash'; password: string; options: object } | { op: 'verify'; stored: string; password: string };

const IDLE_MS = 60_000;

// The thread's code, as a script: it runs the same way from the TypeScript sources and the build.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, 19);
} catch {
  // No per-thread priority here (not Linux): the bound on threads still leaves a core free.
}
const argon2 = require(workerData.argon2);
// A stored value that is no hash argon2 can read matches no password.
function verify(job) {
  try {
    return argon2.verifySync(job.stored, job.password);
  } catch {
    return false;
  }
}
parentPort.on('message', (job) => {
  try {
    parentPort.postMessage({ result: job.op === 'hash' ? argon2.hashSync(job.password, job.options) : verify(job) });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});`;

interface Pending {
  job: HashJob;
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

interface HashThread {
  worker: Worker;
  current?: Pending;
  idle?: NodeJS.Timeout;
  /** Resolves when the thread has ended. */
  finished: Promise<void>;
}

const size = Math.max(1, availableParallelism() - 1);
const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
const threads = new Set<HashThread>();
const free: HashThread[] = [];
const queue: Pending[] = [];
let onThreads = true;

whenWebAssemblyStoreLoads(async () => {
  onThreads = false;
  // Free threads end now, busy ones as soon as their hash is done.
  await Promise.all([...threads].map((thread) => (thread.current ? thread.finished : stopThread(thread))));
});

/** Hashes waiting for a thread: the metrics' hashing-queue gauge. */
export const hashingQueueLength = (): number => queue.length;

/** Runs one hash or verification on a hashing thread, in the order asked. */
export function runHashJob(job: HashJob): Promise<string | boolean> {
  return new Promise((resolve, reject) => {
    queue.push({ job, resolve, reject });
    dispatch();
  });
}

function dispatch(): void {
  if (!onThreads) {
    dispatchOnPool();
    return;
  }
  while (queue.length > 0) {
    const thread = free.pop() ?? (threads.size < size ? startThread() : undefined);
    if (!thread) return;
    clearTimeout(thread.idle);
    thread.current = queue.shift()!;
    // Busy, a thread keeps the process alive (a command awaiting its hash); free, it does not.
    thread.worker.ref();
    thread.worker.postMessage(thread.current.job);
  }
}

function startThread(): HashThread {
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { argon2 } });
  const thread: HashThread = { worker, finished: new Promise((resolve) => worker.once('exit', () => resolve())) };
  threads.add(thread);
  worker.on('message', (answer: { result?: string | boolean; error?: string }) => {
    const done = thread.current;
    thread.current = undefined;
    if (answer.error !== undefined) done?.reject(new Error(answer.error));
    else done?.resolve(answer.result!);
    worker.unref();
    if (!onThreads) {
      void stopThread(thread);
    } else {
      free.push(thread);
      thread.idle = setTimeout(() => void stopThread(thread), IDLE_MS).unref();
    }
    dispatch();
  });
  // A thread that dies (out of memory, say) fails its hash, not the others; the next job starts another.
  const died = (error: Error) => {
    forget(thread);
    thread.current?.reject(error);
    thread.current = undefined;
    dispatch();
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`password hashing thread exited with code ${code}`)));
  return thread;
}

function forget(thread: HashThread): void {
  clearTimeout(thread.idle);
  threads.delete(thread);
  const at = free.indexOf(thread);
  if (at >= 0) free.splice(at, 1);
}

async function stopThread(thread: HashThread): Promise<void> {
  forget(thread);
  await thread.worker.terminate();
}

// Beside the embedded store: libuv's pool, at most `size` hashes at once.
let onPool = 0;

function dispatchOnPool(): void {
  while (queue.length > 0 && onPool < size) {
    const pending = queue.shift()!;
    onPool += 1;
    const { job } = pending;
    const run = job.op === 'hash' ? hash(job.password, job.options) : verify(job.stored, job.password).catch(() => false);
    run.then(pending.resolve, pending.reject).finally(() => {
      onPool -= 1;
      dispatch();
    });
  }
}

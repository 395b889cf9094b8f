// The threads password hashes run on. Each argon2id hash keeps a core busy for about 20 ms; on libuv's
// thread pool, which the engine's token signing shares, a login burst made every token response wait
// behind hashes. So hashes run on threads of their own, started when the first one is asked for, which
// lower their own CPU priority to the least (nice 19, on Linux, where a thread's priority is its own):
// the scheduler then runs them only on CPU time that the event loop, token signing and the databases
// leave. At most one less than the number of cores hash at once (at least one), and a thread left
// without work for a minute ends, giving its memory back.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

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
}

const size = Math.max(1, availableParallelism() - 1);
const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
const threads = new Set<HashThread>();
const free: HashThread[] = [];
const queue: Pending[] = [];

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
  const thread: HashThread = { worker };
  threads.add(thread);
  worker.on('message', (answer: { result?: string | boolean; error?: string }) => {
    const done = thread.current;
    thread.current = undefined;
    if (answer.error !== undefined) done?.reject(new Error(answer.error));
    else done?.resolve(answer.result!);
    worker.unref();
    free.push(thread);
    thread.idle = setTimeout(() => void stopThread(thread), IDLE_MS).unref();
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

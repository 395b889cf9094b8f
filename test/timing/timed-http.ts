// Timed HTTP requests from a thread of their own. The service under test runs in the test's own process:
// a client on the same event loop would read each answer only once the service's event loop is free, and
// so would count the work the service does after answering (the e-mail of a registered address, written
// to an in-process PGlite) as part of the answer's time, which no client elsewhere sees. On its own
// thread the client reads the answer as soon as it arrives, and measures it there: from just before the
// request is sent until its body has been read, on a clock of that thread.
//
// On a machine short of cores (the tests run beside others on two), that thread could still wait for a
// core while the service's thread works after answering. So once the client's thread runs, the thread
// that starts it (where the service runs) lowers its own priority: the client is served first, as a
// client on another machine would be. Vitest runs each test file in a process of its own, so this holds
// for the rest of the calling file only.
import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface TimedRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
}

export interface TimedAnswer {
  status: number;
  text: string;
  setCookies: string[];
  location: string | null;
  /** Milliseconds from the request to the end of its body. */
  ms: number;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ id, url, method, headers, form }) => {
  try {
    const init = { method, headers: { ...headers }, redirect: 'manual' };
    if (form) {
      init.headers['content-type'] = 'application/x-www-form-urlencoded';
      init.body = new URLSearchParams(form).toString();
    }
    const started = process.hrtime.bigint();
    const res = await fetch(url, init);
    const text = await res.text();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    parentPort.postMessage({ id, answer: { status: res.status, text, setCookies: res.headers.getSetCookie(), location: res.headers.get('location'), ms } });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.stack || error) });
  }
});
`;

export interface TimedClient {
  send(request: TimedRequest): Promise<TimedAnswer>;
  close(): Promise<void>;
}

/** A client on its own thread, ahead of the calling thread (see above); close it when done. */
export async function timedClient(): Promise<TimedClient> {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  await new Promise((resolve) => worker.once('online', resolve));
  // The niceness of this thread alone (Linux): the client's thread keeps the one it was started with.
  setPriority(Math.min(19, getPriority() + 5));
  const pending = new Map<number, { resolve(answer: TimedAnswer): void; reject(error: Error): void }>();
  let next = 0;
  worker.on('message', ({ id, answer, error }: { id: number; answer?: TimedAnswer; error?: string }) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (error !== undefined) waiting?.reject(new Error(error));
    else waiting?.resolve(answer!);
  });
  worker.on('error', (error: Error) => pending.forEach((waiting) => waiting.reject(error)));
  return {
    send(request) {
      const id = (next += 1);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, method: 'GET', headers: {}, ...request });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

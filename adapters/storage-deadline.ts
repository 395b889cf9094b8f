// One deadline for all the storage work of one request. Each store call has its own bound (the pool's
// connection and statement timeouts, Redis's command timeout), but a request makes several calls in a row,
// and against a store that stopped answering (connections open, nothing coming back) the bounds add up:
// an interaction resumed after 11 to 13 s where one call failed after 3 or 5. The edge gives each request
// a budget (src/edge/storage-deadline.ts); the guards (guard.ts) end every store call of the request when
// the budget runs out, and refuse its later calls at once.
//
// The clock runs only while the request waits for a store: a slow upload of a form, a password hash between
// two calls (which queue for the CPU under load), or a request that reads no store at all (discovery), spend
// nothing of it.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The request's time for storage is spent: an outage as the request sees it (guard.ts says which store). */
export class StorageDeadlineError extends Error {
  override name = 'StorageDeadlineError';
  constructor(ms?: number) {
    super(`the request's storage deadline${ms === undefined ? '' : ` (${ms} ms)`} has passed`);
  }
}

class Budget {
  /** What is left of the request's time for storage, in milliseconds, as of `since` while waiting. */
  private left: number;
  private inFlight = 0;
  /** When the current stretch of waiting started (performance.now()): some call in flight since then. */
  private since = 0;
  /**
   * One timer for the whole request, armed at the first call and cleared when the request answers. It is
   * not cleared between stretches: time only runs out while waiting, so when it fires early (between
   * stretches, or before a later stretch's end) it re-arms for what is left. A userinfo or token request
   * makes several store calls; one timer, rather than one per stretch, keeps their cost off the hot path.
   */
  private timer: NodeJS.Timeout | undefined;
  /** Rejects the calls of the current stretch, when the time runs out while they wait. */
  private waiting: Array<(error: Error) => void> = [];
  /** The time ran out while the request was open: what it waited for is abandoned, for good. */
  spent = false;
  /** The request has answered: work it left running is bounded by its stores' own timeouts only. */
  private closed = false;
  private readonly ms: number;

  constructor(ms: number) {
    this.ms = ms;
    this.left = ms;
  }

  bound<T>(work: () => Promise<T>): Promise<T> {
    if (this.spent) return Promise.reject(new StorageDeadlineError(this.ms));
    if (this.closed) return work();
    if (this.inFlight++ === 0) {
      this.since = performance.now();
      this.timer ??= this.arm(this.left);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(reject);
      work().then(
        (value) => {
          this.settled();
          resolve(value);
        },
        (error: unknown) => {
          this.settled();
          reject(error);
        },
      );
    });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private arm(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => this.timeUp(), ms);
    timer.unref();
    return timer;
  }

  private timeUp(): void {
    this.timer = undefined;
    if (this.closed || this.inFlight === 0) return;
    const left = this.left - (performance.now() - this.since);
    // Timers may fire a fraction of a millisecond early.
    if (left >= 1) {
      this.timer = this.arm(left);
      return;
    }
    this.spent = true;
    const error = new StorageDeadlineError(this.ms);
    for (const reject of this.waiting.splice(0)) reject(error);
  }

  // Calls in flight together (Promise.all) count their time once: the clock runs while any is waiting.
  private settled(): void {
    if (--this.inFlight > 0) return;
    this.left -= performance.now() - this.since;
    this.waiting.length = 0;
  }
}

const budgets = new AsyncLocalStorage<Budget>();

/** Runs `fn` (the rest of the request) with `ms` in all for its storage work. */
export async function withStorageDeadline<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const budget = new Budget(ms);
  try {
    return await budgets.run(budget, fn);
  } finally {
    budget.close();
  }
}

/**
 * `work()` within the deadline of the request being served: refused (StorageDeadlineError) once its time is
 * spent, abandoned (the promise rejects while `work` goes on) when the time runs out first. Outside a
 * request (a sweep, a timer), `work()` as it is.
 */
export function withinStorageDeadline<T>(work: () => Promise<T>): Promise<T> {
  const budget = budgets.getStore();
  return budget === undefined ? work() : budget.bound(work);
}

/** Whether the request being served has spent its storage time (a transaction must then not commit). */
export function storageDeadlinePassed(): boolean {
  return budgets.getStore()?.spent ?? false;
}

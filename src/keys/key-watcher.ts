// Keeps a running instance's signing keys current without a restart. The keys are read again when
// another instance or the CLI announces a change (Postgres NOTIFY, when listening is available), when a
// waiting key's activation time comes, and every minute in any case (a lost notice, a JWKS file, the
// embedded store). The engine is handed a new key set only when what it should hold has changed.
import type { PrivateJwk } from './generate.ts';
import { engineKeys, nextActivation, type SigningKey } from './key-schedule.ts';

/** How often the keys are read again when nothing announced a change. */
const RELOAD_INTERVAL_MS = 60_000;

export interface KeyWatchOptions {
  /** The keys as stored now. */
  read(): Promise<SigningKey[]>;
  /** Gives the engine its keys, in signing order. */
  apply(keys: PrivateJwk[]): void;
  /** The time the schedule follows. */
  now(): Date;
  /** Subscribes to change notices; returns how to stop. */
  listen?(onChange: () => void): { ready: Promise<void>; close(): Promise<void> } | undefined;
  intervalMs?: number;
}

export interface KeyWatch {
  /** Settles once listening for notices has started (or failed to). */
  ready: Promise<void>;
  /** Reads the keys now and gives the engine any change; resolves when done. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export function watchSigningKeys(initial: SigningKey[], options: KeyWatchOptions): KeyWatch {
  const intervalMs = options.intervalMs ?? RELOAD_INTERVAL_MS;
  let keys = initial;
  let applied = fingerprint(engineKeys(keys, options.now()));
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let running: Promise<void> | undefined;
  let failing = false;

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    const next = nextActivation(keys, options.now());
    const untilNext = next ? Math.max(0, next.getTime() - options.now().getTime()) : Infinity;
    timer = setTimeout(() => void refresh(), Math.min(intervalMs, untilNext));
    timer.unref(); // a background duty: it must not keep a process alive
  };

  const reload = async (): Promise<void> => {
    try {
      keys = await options.read();
      const forEngine = engineKeys(keys, options.now());
      const print = fingerprint(forEngine);
      if (print !== applied) {
        options.apply(forEngine);
        applied = print;
      }
      failing = false;
    } catch (error) {
      // The keys in use stay in use: an outage of the store must not stop signing. Said once per outage.
      if (!failing) console.error('signing keys not reloaded', { error: error instanceof Error ? error.message : String(error) });
      failing = true;
    } finally {
      schedule();
    }
  };

  // One read at a time. A refresh asked for during a read is served by one more read after it, which
  // sees whatever changed meanwhile; further asks join that one.
  let queued: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    if (!running) {
      running = reload().finally(() => {
        running = undefined;
      });
      return running;
    }
    queued ??= running.then(() => {
      queued = undefined;
      return refresh();
    });
    return queued;
  };

  const subscription = options.listen?.(() => void refresh());
  schedule();
  return {
    ready: subscription?.ready ?? Promise.resolve(),
    refresh,
    async close() {
      closed = true;
      clearTimeout(timer);
      await subscription?.close();
      await running;
    },
  };
}

/** What the engine holds, in order: the kids are enough, since a kid names one key for good. */
const fingerprint = (keys: PrivateJwk[]): string => keys.map((k) => k.kid).join(' ');

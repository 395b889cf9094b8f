// A LISTEN connection to Postgres that survives outages: it reconnects by itself, and tells its owner
// when it (re)connects, since notifications sent while it was away are lost for good.
import pg from 'pg';

export interface ListenHandlers {
  /** A NOTIFY on the channel, with its payload. */
  message(payload: string): void;
  /** The connection was (re)established: anything may have changed while it was down. */
  reset(): void;
}

export interface Listener {
  /** Settles once the first attempt to listen is over, whether it succeeded or not. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface ListenOptions {
  url: string;
  connectionTimeoutMs: number;
  /** Delay between reconnection attempts. */
  retryMs?: number;
  /** How often the connection is checked: a link that dies silently would otherwise miss NOTIFYs unnoticed. */
  heartbeatMs?: number;
}

/** Only [a-z_] channel names: LISTEN takes an identifier, not a parameter. */
export function listenPostgres(channel: string, options: ListenOptions, handlers: ListenHandlers): Listener {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  const retryMs = options.retryMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let settle: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    settle = resolve;
  });

  const schedule = (fn: () => void, ms: number) => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
    timer.unref(); // a background duty: it must not keep a process (or a test worker) alive
  };

  const drop = (c: pg.Client) => {
    if (client !== c) return; // an older connection, already replaced
    client = undefined;
    c.end().catch(() => {});
    schedule(connect, retryMs);
  };

  const heartbeat = (c: pg.Client) => {
    schedule(() => {
      c.query('SELECT 1')
        .then(() => heartbeat(c))
        .catch(() => drop(c));
    }, heartbeatMs);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: options.connectionTimeoutMs,
      query_timeout: options.connectionTimeoutMs,
    });
    client = c;
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    c.on('notification', (n) => {
      if (n.channel === channel) handlers.message(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (closed) return void (await c.end().catch(() => {}));
      handlers.reset();
      heartbeat(c);
    } catch {
      drop(c);
    } finally {
      settle();
    }
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}

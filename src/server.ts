// The standalone server: one HTTP listener around the service, and its graceful stop. On SIGTERM (or
// SIGINT) it first drains: /readyz answers 503 so that the load balancer takes the instance out of
// rotation, while every request still gets its answer; then the listener closes, the requests in
// flight finish, the connections close without resetting a request the server accepted, the storage
// closes, and the process exits 0.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SignInConfig } from './config/schema.ts';
import { trackConnections } from './http/connections.ts';
import { loadMetrics } from './metrics/load-metrics.ts';
import { createSignInService, type SignInService, type SignInServiceOptions } from './service.ts';

/** How long requests still in flight once the listener is closed may take before their sockets are cut. */
const IN_FLIGHT_GRACE_MS = 10_000;

/**
 * Once the listener is closed, how long a connection with no request in progress is kept: a client that
 * has just connected, or has just been answered on a kept-alive connection, may have its next request
 * on the way, and closing under it would reset that request. A round trip on a poor mobile network can
 * take a second; past this, no client is about to use the connection.
 */
const QUIET_CLOSE_MS = 2_000;

export interface RunningServer {
  service: SignInService;
  server: Server;
  url: string;
  /** The metrics listener, when `metrics.port` gives it one (its URL ends in /metrics). */
  metricsUrl?: string;
  /** True from the start of a shutdown: /readyz answers 503 and responses close their connection. */
  readonly draining: boolean;
  /**
   * Drains for `drainSeconds`, then closes the listener, waits for the requests in flight and for idle
   * connections to be quiet, and closes the service. Calling it again while it runs ends the drain and
   * the waiting for quiet connections at once (a second Ctrl-C).
   */
  shutdown(drainSeconds: number): Promise<void>;
  /** Stops without a drain, idle connections closed at once (tests, embedding code). */
  stop(): Promise<void>;
}

/** The drain period of a config: its own, else 10 s in production and none in development. */
export function drainSecondsOf(config: Pick<SignInConfig, 'production' | 'shutdown'>): number {
  return config.shutdown.drainSeconds ?? (config.production ? 10 : 0);
}

export async function startServer(
  config: SignInConfig,
  options: SignInServiceOptions & { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const service = await createSignInService(config, options);
  const handle = service.app.callback();
  let draining = false;
  const server = createServer((req, res) => {
    connections.request(req.socket, res);
    if (draining) {
      // Keep-alive clients open a new connection for their next request, which a load balancer sends
      // to another instance; a request on an idle connection closed under it would fail instead.
      res.setHeader('Connection', 'close');
      if (req.method === 'GET' && pathOf(req) === '/readyz') return notReady(res);
    }
    void handle(req, res);
  });
  const connections = trackConnections(server);
  // Slow clients on poor networks are normal for our users; idle sockets are still reclaimed.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? config.port, options.host ?? '0.0.0.0', () => resolve());
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  // Metrics on a port of their own, which the network keeps to the monitoring system (metrics/endpoint.ts).
  let metricsServer: Server | undefined;
  if (config.metrics.port !== undefined) {
    try {
      metricsServer = await (await loadMetrics()).startMetricsListener(config.metrics.port, options.host ?? '0.0.0.0');
    } catch (error) {
      await closeListener(server);
      await service.close();
      throw error;
    }
  }

  let endDrain: () => void = () => {};
  let stopping: Promise<void> | undefined;
  const shutdown = (drainSeconds: number): Promise<void> => {
    if (stopping) {
      endDrain();
      connections.hurry();
      return stopping;
    }
    draining = true;
    // Answers already under way say it too: their clients must not send another request here either.
    connections.closeAfterAnswers();
    stopping = (async () => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainSeconds * 1000);
        endDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      await connections.close(QUIET_CLOSE_MS, IN_FLIGHT_GRACE_MS);
      if (metricsServer) await closeListener(metricsServer);
      await service.close();
    })();
    return stopping;
  };

  return {
    service,
    server,
    url: `http://localhost:${port}`,
    metricsUrl: metricsServer && `http://localhost:${(metricsServer.address() as AddressInfo).port}/metrics`,
    get draining() {
      return draining;
    },
    shutdown,
    stop: () => {
      const stopped = shutdown(0);
      connections.hurry();
      return stopped;
    },
  };
}

/**
 * Runs until SIGTERM or SIGINT, then shuts down gracefully; resolves with the exit code. A second
 * signal during the drain skips the rest of it.
 */
export function stopOnSignals(running: RunningServer, drainSeconds: number, log: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      if (running.draining) {
        log(`${signal}: stopping now`);
      } else if (drainSeconds > 0) {
        log(`${signal}: draining for ${drainSeconds} s (/readyz answers 503), then stopping`);
      }
      running.shutdown(drainSeconds).then(
        () => {
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          log('stopped');
          resolve(0);
        },
        (error: unknown) => {
          log(`stopped with an error: ${error instanceof Error ? error.message : String(error)}`);
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/**
 * The metrics listener's stop: no longer accepting, idle connections closed at once (a scrape that
 * fails is simply taken again), the scrapes in flight finished or cut after the grace period.
 */
async function closeListener(server: Server): Promise<void> {
  const cut = setTimeout(() => server.closeAllConnections(), IN_FLIGHT_GRACE_MS);
  try {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  } finally {
    clearTimeout(cut);
  }
}

const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?', 1)[0];

function notReady(res: ServerResponse): void {
  res.statusCode = 503;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify({ status: 'draining' }));
}

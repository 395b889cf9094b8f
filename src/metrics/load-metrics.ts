// The metrics as the rest of the service reaches them. prom-client, its registry and the process
// metrics are loaded by the first service that turns metrics on (a scrape port or token): a service
// without metrics neither loads them (about 3 MiB of an idle server's memory) nor feeds them.

/** What a service with metrics uses: the counters' feeds, the scrape route and the scrape listener. */
export type Metrics = typeof import('./metrics-on.ts');

let loaded: Promise<Metrics> | undefined;
let ready: Metrics | undefined;

export function loadMetrics(): Promise<Metrics> {
  loaded ??= import('./metrics-on.ts').then((metrics) => {
    metrics.collectProcessMetrics();
    ready = metrics;
    return metrics;
  });
  return loaded;
}

/** Metrics are collected once a way to read them is configured. */
export const metricsOn = (config: { metrics: { port?: number; bearerToken?: string } }): boolean =>
  config.metrics.port !== undefined || config.metrics.bearerToken !== undefined;

/** A storage outage met by a request: counted under its backend, once some service turned metrics on. */
export function countStorageError(error: unknown): void {
  ready?.countStorageError(error);
}

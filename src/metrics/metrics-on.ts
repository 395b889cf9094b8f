// Everything that needs prom-client, in one module that load-metrics.ts imports when metrics are on.
export { countEngineEvents, countSecurityEvents } from './event-metrics.ts';
export { httpMetrics } from './http-metrics.ts';
export { metricsRoute, startMetricsListener } from './endpoint.ts';
export { collectProcessMetrics, countStorageError } from './registry.ts';

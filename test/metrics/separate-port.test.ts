// With `metrics.port`, /metrics is served by a listener of its own, without a token, and the service's
// port has no /metrics at all: what the public network can reach says nothing about the metrics.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { sample, scrape } from './scrape.ts';

let running: RunningServer;

/** A port free now, for the metrics listener (the config takes a port number, not 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const config = parseConfig({
    issuer: 'http://127.0.0.1:3000',
    secrets: { cookieKeys: ['k'.repeat(43)], pairwiseSalt: 's'.repeat(43) },
    storage: { kind: 'embedded', dataDir: 'memory://' },
    keys: { algorithms: ['RS256'] },
    log: { level: 'silent' },
    metrics: { port: await freePort() },
  });
  running = await startServer(config, { port: 0, host: '127.0.0.1', sweepIntervalSeconds: 0 });
});
afterAll(async () => {
  await running?.stop();
});

describe('/metrics on a port of its own', () => {
  it('answers there, and not on the service port', async () => {
    expect((await fetch(`${running.url}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await scrape(`${running.url}/metrics`)).status).toBe(404);

    const metrics = await scrape(running.metricsUrl!);
    expect(metrics.status).toBe(200);
    const discovery = { method: 'GET', route: '/.well-known/openid-configuration', status: '200' };
    expect(sample(metrics.text, 'signin_http_requests_total', discovery)).toBe(1);
    expect(sample(metrics.text, 'signin_http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    // The metrics listener answers nothing else.
    expect((await fetch(running.metricsUrl!.replace(/\/metrics$/, '/healthz'))).status).toBe(404);
  });
});

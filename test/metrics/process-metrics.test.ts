// The process's own metrics watch every garbage collection and sample the event loop: a service
// without metrics does not start them; the first one with metrics does, and they are then scraped.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registry } from '../../src/metrics/registry.ts';
import { startTestService } from '../support/service.ts';
import { scrape } from './scrape.ts';

describe('process metrics', () => {
  it('are not gathered by a service without metrics, and are by the first one with them', async () => {
    const quiet = await startTestService();
    try {
      expect(registry.getSingleMetric('signin_nodejs_gc_duration_seconds')).toBeUndefined();
      expect(registry.getSingleMetric('signin_nodejs_eventloop_lag_seconds')).toBeUndefined();
    } finally {
      await quiet.stop();
    }

    const token = randomBytes(32).toString('base64url');
    const measured = await startTestService({ metrics: { bearerToken: token } });
    try {
      expect(registry.getSingleMetric('signin_nodejs_gc_duration_seconds')).toBeDefined();
      const { text } = await scrape(`${measured.url}/metrics`, token);
      expect(text).toMatch(/^signin_nodejs_eventloop_lag_seconds \d/m);
      expect(text).toMatch(/^signin_process_cpu_user_seconds_total \d/m);
    } finally {
      await measured.stop();
    }
  });
});

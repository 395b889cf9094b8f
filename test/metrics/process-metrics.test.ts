// Metrics cost nothing to a service that does not turn them on: prom-client is not even loaded, nor are
// the process metrics it gathers (a watch on every garbage collection, the event loop sampled every few
// milliseconds). The first service with metrics loads them all, and the process metrics are then scraped. Each case runs in a process of its own, where nothing
// else could have loaded the module.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const support = join(process.cwd(), 'test', 'support', 'service.ts');

/** Starts a service in a fresh process with `metrics`, and reports what it loaded and what it serves. */
function run(metrics: string): Promise<{ promClientLoaded: boolean; scraped: string }> {
  const script = `import { createRequire } from 'node:module';
    import { startTestService } from ${JSON.stringify(support)};
    const svc = await startTestService({ metrics: ${metrics} });
    const require = createRequire(import.meta.url);
    const promClientLoaded = Object.keys(require.cache).some((file) => file.includes('/node_modules/prom-client/'));
    const res = await fetch(svc.url + '/metrics', { headers: { authorization: 'Bearer le-jeton-du-banc-0123456789abcdef' } });
    const scraped = res.ok ? await res.text() : '';
    await svc.stop();
    console.log(JSON.stringify({ promClientLoaded, scraped }));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`exit ${code}: ${out}`));
      resolve(JSON.parse(last) as { promClientLoaded: boolean; scraped: string });
    });
  });
}

describe('metrics', () => {
  it('are not loaded at all by a service without them', async () => {
    const { promClientLoaded, scraped } = await run('{}');
    expect(promClientLoaded).toBe(false);
    expect(scraped).toBe('');
  });

  it('are loaded by a service with them, process metrics included', async () => {
    const { promClientLoaded, scraped } = await run("{ bearerToken: 'le-jeton-du-banc-0123456789abcdef' }");
    expect(promClientLoaded).toBe(true);
    expect(scraped).toMatch(/^signin_nodejs_eventloop_lag_seconds \d/m);
    expect(scraped).toContain('# TYPE signin_nodejs_gc_duration_seconds histogram');
    expect(scraped).toMatch(/^signin_process_cpu_user_seconds_total \d/m);
  });
});

// Graceful shutdown of `signin serve`, as a load balancer sees it: on SIGTERM /readyz turns 503 while
// requests are still answered, so the balancer takes the instance out of rotation before it stops
// listening; then the server exits 0, and no request sent to it was cut.
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startChild } from './child-server.ts';

const BIN = fileURLToPath(new URL('../../bin/signin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'signin-shutdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Answer {
  status?: number;
  body?: string;
  error?: string;
}

function get(port: number, path: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe('signin serve on SIGTERM', () => {
  it('drains (/readyz 503, requests still answered), then exits 0 without resetting a request', async () => {
    const port = await freePort();
    const config = join(dir, 'signin.yaml');
    writeFileSync(
      config,
      [
        `issuer: http://127.0.0.1:${port}`,
        `port: ${port}`,
        'secrets:',
        `  cookieKeys: ["${'c'.repeat(40)}"]`,
        `  pairwiseSalt: "${'s'.repeat(40)}"`,
        'storage:',
        '  kind: embedded',
        `  dataDir: ${JSON.stringify(join(dir, 'data'))}`,
        'shutdown:',
        '  drainSeconds: 2',
      ].join('\n'),
    );
    const server = startChild(process.execPath, [BIN, 'serve', '--config', config], { env: { ...process.env, SIGNIN_CONFIG: '' } });
    await server.waitFor('listening');

    // A load balancer in front: its health check polls /readyz, and once it answers 503 no new request
    // is sent to this instance. Until then four clients send one request after another over
    // kept-alive connections.
    let outOfRotation = false;
    let signalled = false;
    const readiness: Answer[] = [];
    const healthCheck = async (): Promise<void> => {
      while (!outOfRotation) {
        const answer = await get(port, '/readyz', new Agent());
        readiness.push(answer);
        if (answer.status !== 200) outOfRotation = true;
        else await new Promise((r) => setTimeout(r, 50));
      }
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const answers: Array<Answer & { afterSignal: boolean }> = [];
    const client = async (): Promise<void> => {
      while (!outOfRotation) answers.push({ ...(await get(port, '/.well-known/openid-configuration', agent)), afterSignal: signalled });
    };
    const load = Promise.all([healthCheck(), client(), client(), client(), client()]);
    while (answers.filter((a) => a.status === 200).length < 20) await new Promise((r) => setTimeout(r, 20));

    server.child.kill('SIGTERM');
    signalled = true;
    await load;
    expect(await server.exited).toBe(0);
    agent.destroy();

    // The health check saw the instance ready, then draining; never a refused or reset connection.
    expect(readiness.at(-1)).toEqual({ status: 503, body: JSON.stringify({ status: 'draining' }) });
    expect(readiness.slice(0, -1).every((a) => a.status === 200)).toBe(true);
    // Every request sent got its answer, those in flight at SIGTERM and during the drain included.
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    // Requests kept being answered during the drain.
    expect(answers.filter((a) => a.afterSignal).length).toBeGreaterThan(0);
    expect(server.output()).toContain('SIGTERM: draining for 2 s');
    expect(server.output()).toContain('stopped');
  }, 120_000);
});

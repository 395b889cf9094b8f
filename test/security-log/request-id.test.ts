// The request id: taken from X-Request-Id when it looks like an id, else generated; echoed in the
// response and written on the log lines of the request. And the readable (development) form of the
// lines, which must not let a value forge a line of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdOf } from '../../src/edge/request-id.ts';
import { formatLine } from '../../src/log/pretty-lines.ts';
import { postForm } from '../support/flow.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { LogCapture } from './capture.ts';

const log = new LogCapture();
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ log: { level: 'info', pretty: false } }, { logDestination: log.destination });
});
afterAll(() => svc.stop());

const failedClientAuth = (headers: Record<string, string> = {}) =>
  postForm(
    `${svc.url}/oauth/token/revoke`,
    { token: 'x', client_id: 'no-such-client', client_secret: 'x' },
    { accept: 'application/json', ...headers },
  );

describe('request ids', () => {
  it("keeps a sane X-Request-Id, echoes it, and writes it on the request's lines", async () => {
    const res = await failedClientAuth({ 'x-request-id': 'lb-7f3a9c2e-0001' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe('lb-7f3a9c2e-0001');
    expect(log.one('client_auth.failure', { request_id: 'lb-7f3a9c2e-0001' })).toMatchObject({
      client_id: 'no-such-client',
      reason: 'unknown_client',
    });
  });

  it('replaces a missing or unsafe one with a fresh id', async () => {
    const fresh = await failedClientAuth();
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const unsafe of ['two words', 'x'.repeat(200), 'a"b', 'ligne\u0001']) expect(requestIdOf(unsafe)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf('Root=1-67891233-abcdef012345678912345678')).toBe('Root=1-67891233-abcdef012345678912345678');
  });

  it('answers every page and endpoint with its id', async () => {
    for (const path of ['/healthz', '/.well-known/openid-configuration', '/account', '/portal/', '/nowhere']) {
      const res = await fetch(`${svc.url}${path}`, { redirect: 'manual' });
      expect(res.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('readable log lines', () => {
  it('shows the time, level and event first, then the fields', () => {
    const line = formatLine(
      '{"level":"warn","time":"2026-01-02T03:04:05.678Z","event":"sign_in.failure","outcome":"failure","ip":"203.0.113.9"}\n',
    );
    expect(line).toBe('03:04:05 WARN  sign_in.failure outcome=failure ip=203.0.113.9\n');
  });

  it('quotes a value with spaces or line breaks, so that it cannot pass for a line of its own', () => {
    const line = formatLine(
      JSON.stringify({
        level: 'warn',
        time: '2026-01-02T03:04:05.678Z',
        event: 'client_auth.failure',
        client_id: 'x\n03:04:06 INFO  sign_in.success',
      }),
    );
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).toContain('client_id="x\\n03:04:06 INFO  sign_in.success"');
  });

  it("prints an error's stack under its line", () => {
    const line = formatLine(
      JSON.stringify({
        level: 'error',
        time: '2026-01-02T03:04:05.678Z',
        event: 'error.unexpected',
        err: { message: 'boom', stack: 'Error: boom\n    at here (file.ts:1:1)' },
      }),
    );
    expect(line).toBe('03:04:05 ERROR error.unexpected\nError: boom\n    at here (file.ts:1:1)\n');
  });
});

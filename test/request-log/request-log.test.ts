// The request log: one JSON line per request, through the service's logger, with the method, the route
// pattern, the status, the time taken and the request id, and nothing the request carried: no query
// string value, code, token, secret or cookie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, exchangeCode, postForm } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { LogCapture, Sensitive } from '../security-log/capture.ts';

const log = new LogCapture();
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ log: { level: 'info', pretty: false } }, { logDestination: log.destination });
});
afterAll(async () => {
  await svc?.stop();
});

const requestLines = () => log.lines().filter((line) => line.msg === 'request');
const linesOf = (requestId: string) => requestLines().filter((line) => line.request_id === requestId);

describe('request log', () => {
  it('writes one line per request, with its route pattern and none of its values', async () => {
    const client = await svc.createClient();
    const user = await svc.createUser();
    const flow = await authorize(svc.url, await relyingParty(svc.url, client), user);
    const code = flow.callback.searchParams.get('code')!;
    const exchanged = await exchangeCode(svc.url, client, flow, {}, { 'x-request-id': 'rl-token-1' });
    expect(exchanged.status).toBe(200);
    const refreshToken = exchanged.json.refresh_token as string;
    const accessToken = exchanged.json.access_token as string;
    const refreshed = await postForm(
      `${svc.url}/oauth/token`,
      { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId, client_secret: client.clientSecret },
      { 'x-request-id': 'rl-refresh-1' },
    );
    expect(refreshed.status).toBe(200);
    const info = await fetch(`${svc.url}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}`, 'x-request-id': 'rl-userinfo-1' },
    });
    expect(info.status).toBe(200);
    const queryValue = 'query-value-that-must-not-be-logged';
    const interaction = /\/interaction\/[^/?]+/.exec(flow.pages[0].url)![0];
    await fetch(`${svc.url}${interaction}?hint=${queryValue}`, { headers: { 'x-request-id': 'rl-interaction-1' }, redirect: 'manual' });

    expect(linesOf('rl-token-1')).toEqual([
      expect.objectContaining({ level: 'info', method: 'POST', route: '/oauth/token', status: 200, duration_ms: expect.any(Number) }),
    ]);
    expect(linesOf('rl-refresh-1')).toEqual([expect.objectContaining({ method: 'POST', route: '/oauth/token', status: 200 })]);
    expect(linesOf('rl-userinfo-1')).toEqual([expect.objectContaining({ method: 'GET', route: '/oauth/userinfo', status: 200 })]);
    expect(linesOf('rl-interaction-1')).toEqual([expect.objectContaining({ method: 'GET', route: '/interaction/:uid' })]);
    // The browser's steps are there too, each named by its pattern.
    const routes = new Set(requestLines().map((line) => line.route));
    expect(routes).toContain('/oauth/authorize');
    expect(routes).toContain('/interaction/:uid/login');

    for (const line of requestLines()) {
      expect(Object.keys(line).sort()).toEqual(['duration_ms', 'ip', 'level', 'method', 'msg', 'request_id', 'route', 'status', 'time']);
      expect(line.route).not.toContain('?');
    }
    const used = new Sensitive();
    used.add(code, accessToken, refreshToken, refreshed.json.access_token as string, refreshed.json.refresh_token as string);
    used.add(client.clientSecret, queryValue, interaction.split('/')[2], user.email, user.password, flow.start.state, flow.start.verifier);
    used.addCookies(flow.browser);
    used.expectAbsentFrom(
      requestLines()
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
  });

  it("logs health checks at debug, so the info log shows only the users' requests", async () => {
    const health = await fetch(`${svc.url}/healthz`, { headers: { 'x-request-id': 'rl-health-1' } });
    expect(health.status).toBe(200);
    const page = await fetch(`${svc.url}/no-such-page`, { headers: { 'x-request-id': 'rl-missing-1' } });
    expect(page.status).toBe(404);
    expect(linesOf('rl-health-1')).toEqual([]);
    expect(linesOf('rl-missing-1')).toEqual([expect.objectContaining({ method: 'GET', route: '(unmatched)', status: 404 })]);
  });
});

// The service's clock moved. Forward: a refresh-token family used every 20 days ends
// `ttl.refreshTokenAbsolute` (90 days) after the sign-in that started it, and a browser session used every
// 10 days ends `ttl.sessionAbsolute` (30 days) after its sign-in; neither ends before. Back: a token rotated
// while the clock was two hours ahead, presented again 40 s after it was set back, is a reuse (invalid_grant)
// and ends the grant, as the same replay is on a steady clock: a clock set back never widens the grace.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPage } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';
import { servicesOnEachStore } from '../storage/helpers/instance.ts';
import { signedInApp } from './support.ts';

const DAY = 24 * 3600 * 1000;

let stores: Awaited<ReturnType<typeof servicesOnEachStore>>;
let services: Record<string, TestService>;
beforeAll(async () => {
  stores = await servicesOnEachStore({ redis: true });
  services = stores.services;
});
afterAll(() => stores?.stop());
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the service's clock (Date, which the engine and our storage read) to `start + offset`. */
function clockAt(start: number, offsetMs: number): void {
  vi.setSystemTime(new Date(start + offsetMs));
}

describe.each(['pglite', 'postgres+redis'])('absolute lifetimes on %s', (backend) => {
  it('ends a refresh-token family 90 days after its sign-in, however often it is used', async () => {
    const svc = services[backend];
    expect(svc.config.ttl.refreshTokenAbsolute).toBe(90 * 24 * 3600);
    const app = await signedInApp(svc);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    clockAt(start, 0);
    let token = (await app.tokens()).refresh_token;
    for (const day of [20, 40, 60, 80]) {
      clockAt(start, day * DAY);
      const res = await app.refresh(token);
      expect(res.status, `day ${day}`).toBe(200);
      token = String(res.json.refresh_token);
    }
    clockAt(start, 90 * DAY - 60_000); // a minute before the end: still fine
    const last = await app.refresh(token);
    expect(last.status).toBe(200);
    clockAt(start, 90 * DAY + 1000);
    const ended = await app.refresh(String(last.json.refresh_token));
    expect([ended.status, ended.json.error]).toEqual([400, 'invalid_grant']);
  });

  it('ends a browser session 30 days after its sign-in, whatever its activity', async () => {
    const svc = services[backend];
    expect(svc.config.ttl.sessionAbsolute).toBe(30 * 24 * 3600);
    const app = await signedInApp(svc);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    clockAt(start, 0);
    await app.code(); // signs in (and consents)
    for (const day of [10, 20, 29]) {
      clockAt(start, day * DAY);
      // Signed in already: the authorization comes straight back with a code, no login page.
      const back = await app.browser.open((await app.rp.start()).url);
      expect(back instanceof URL && back.searchParams.has('code'), `day ${day}`).toBe(true);
    }
    clockAt(start, 30 * DAY + 1000);
    const page = await app.browser.open((await app.rp.start()).url);
    expect(isPage(page) && /name="password"/.test(page.html)).toBe(true);
  });
});

describe.each(['pglite', 'postgres+redis'])('a clock set back after a rotation, on %s', (backend) => {
  it('treats the replay as a reuse and ends the grant', async () => {
    const app = await signedInApp(services[backend]!);
    const start = Date.now();
    const first = String((await app.tokens()).refresh_token);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(start + 2 * 3600 * 1000));
    const rotated = await app.refresh(first);
    expect(rotated.status).toBe(200);
    const successor = String(rotated.json.refresh_token);

    vi.setSystemTime(new Date(start + 40_000));
    const replay = await app.refresh(first);
    expect([replay.status, replay.json.error]).toEqual([400, 'invalid_grant']);
    // The reuse ended the grant: the successor the first rotation issued no longer works either.
    const after = await app.refresh(successor);
    expect([after.status, after.json.error]).toEqual([400, 'invalid_grant']);
  });
});

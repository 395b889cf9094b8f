// A wall clock set back does not widen the refresh-token reuse grace: a token rotated while the clock was two
// hours ahead, presented again 40 s after the clock was set back, is a reuse (invalid_grant) and ends the
// grant, as the same replay is on a steady clock. On the embedded store and on Postgres + Redis.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestService } from '../support/service.ts';
import { servicesOnEachStore } from '../storage/helpers/instance.ts';
import { signedInApp } from './support.ts';

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

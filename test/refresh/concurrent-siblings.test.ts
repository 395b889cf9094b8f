// Two siblings (the successors of one parallel refresh) presented 20 times at the same instant, 50 runs
// on Postgres and 50 on PGlite: never two live chains. At most one presentation moves the family's
// head; whatever else was issued in the race is dead, or the grant was revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm } from '../support/flow.ts';
import type { TestService } from '../support/service.ts';
import { servicesOnEachStore } from '../storage/helpers/instance.ts';
import { signedInApp, tally, type SignedInApp } from './support.ts';

const RUNS = 50;
const PRESENTATIONS = 20;

let stores: Awaited<ReturnType<typeof servicesOnEachStore>>;
let services: Record<string, TestService>;
beforeAll(async () => {
  stores = await servicesOnEachStore({ redis: false });
  services = stores.services;
});
afterAll(() => stores?.stop());

/** Whether the service still takes `token` (introspection: it judges, it does not use). */
async function active(svc: TestService, app: SignedInApp, token: string): Promise<boolean> {
  const res = await postForm(`${svc.url}/oauth/token/introspect`, {
    token,
    client_id: app.client.clientId,
    client_secret: app.client.clientSecret,
  });
  return res.json.active === true;
}

describe.each(['postgres', 'pglite'])('concurrent siblings on %s', (backend) => {
  it(`leaves at most one live chain, ${RUNS} runs of ${PRESENTATIONS} presentations`, { timeout: 300_000 }, async () => {
    const svc = services[backend];
    const app = await signedInApp(svc);
    const outcomes: string[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const { refresh_token: first } = await app.tokens();
      const siblings = await Promise.all([app.refresh(first), app.refresh(first)]);
      expect(siblings.map((r) => r.status)).toEqual([200, 200]);
      const [a, b] = siblings.map((r) => String(r.json.refresh_token));

      const race = await Promise.all(Array.from({ length: PRESENTATIONS }, (_, i) => app.refresh(i % 2 ? a : b)));
      for (const r of race) expect(r.status === 200 || r.json.error === 'invalid_grant', r.text).toBe(true);
      const issued = race.filter((r) => r.status === 200).map((r) => String(r.json.refresh_token));

      // Every token the race left alive belongs to one chain: once one of them is used, none of the
      // others works any more (a second chain would go on).
      const alive: string[] = [];
      for (const token of issued) if (await active(svc, app, token)) alive.push(token);
      if (alive.length) {
        expect((await app.refresh(alive[0])).status).toBe(200);
        for (const token of issued.filter((t) => t !== alive[0])) expect(await active(svc, app, token)).toBe(false);
      }
      outcomes.push(alive.length ? 'one chain' : 'grant revoked');
    }
    console.log(`[${backend}] ${RUNS} races of two siblings:`, tally(outcomes));
    expect(outcomes).toHaveLength(RUNS);
  });
});

// Signing out of the portal ends the portal session on the server: a copy of the portal cookie taken
// before (a shared computer, a stolen cookie) opens nothing afterwards.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { csrfOf, get, post, signInToPortal, PORTAL } from './support.ts';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('portal sign-out', () => {
  it('refuses the previous portal cookie when it is replayed', async () => {
    const owner = await signInToPortal(ts);
    const before = await get(owner, '/apps/new');
    expect(before.status).toBe(200);
    // The Cookie header the browser sent: what a copy of its cookies would replay.
    const cookies = String((before as unknown as { req: { getHeader(name: string): unknown } }).req.getHeader('cookie'));
    expect(cookies).toContain('portal_session=');

    const out = await post(owner, '/logout', {}, csrfOf(owner.home.html));
    expect(out.status).toBe(303);

    const replayed = await request(ts.url).get(`${PORTAL}/apps/new`).set('Cookie', cookies).redirects(0);
    expect(replayed.status).toBe(302);
    expect(replayed.headers.location).toBe(`${PORTAL}/login`);
    expect(replayed.text).not.toContain(owner.email);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalClientId } from '../../src/portal/portal-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { PORTAL, VALID_APP, csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

describe('portal: isolation between owners and CSRF', () => {
  let ts: TestService;
  let alice: Owner;
  let bob: Owner;
  let alicesApp: string;
  beforeAll(async () => {
    ts = await startTestService();
    alice = await signInToPortal(ts);
    bob = await signInToPortal(ts);
    alicesApp = (await registerApp(alice)).clientId;
  });
  afterAll(() => ts.stop());

  it('lists only the owner’s own applications', async () => {
    expect((await get(alice, '/')).text).toContain(alicesApp);
    expect((await get(bob, '/')).text).not.toContain(alicesApp);
  });

  it.each(['', '/edit', '/delete', '/rotate-secret'])('answers 404 to another owner on GET /apps/:id%s', async (suffix) => {
    const res = await get(bob, `/apps/${alicesApp}${suffix}`);
    expect(res.status).toBe(404);
    expect(res.text).toContain('cette application n’est pas la vôtre');
    expect(res.text).not.toContain(VALID_APP.name);
  });

  it.each(['', '/rotate-secret', '/delete'])('answers 404 to another owner on POST /apps/:id%s and changes nothing', async (suffix) => {
    const before = await ts.service.context.clients.get(alicesApp);
    const res = await post(bob, `/apps/${alicesApp}${suffix}`, { ...VALID_APP, name: 'Volé' }, csrfOf(bob.home.html));
    expect(res.status).toBe(404);
    expect(await ts.service.context.clients.get(alicesApp)).toEqual(before);
  });

  it('answers 404 for an unknown id and for the portal’s own client', async () => {
    expect((await get(alice, '/apps/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await get(alice, `/apps/${portalClientId(ts.url, PORTAL)}`)).status).toBe(404);
  });

  it.each([
    ['no token', null],
    ['a wrong token', 'x'.repeat(43)],
  ])('refuses every form post with %s (403) and does nothing', async (_label, token) => {
    const count = (await ts.service.context.clients.list(alice.id)).length;
    const before = await ts.service.context.clients.get(alicesApp);
    for (const path of ['/apps', `/apps/${alicesApp}`, `/apps/${alicesApp}/rotate-secret`, `/apps/${alicesApp}/delete`, '/logout']) {
      const res = await post(alice, path, VALID_APP, token);
      expect(res.status, path).toBe(403);
      expect(res.text).toContain('Formulaire expiré');
    }
    expect(await ts.service.context.clients.list(alice.id)).toHaveLength(count);
    expect(await ts.service.context.clients.get(alicesApp)).toEqual(before);
    expect((await get(alice, '/apps/new')).status).toBe(200);
  });

  it('refuses the token of another portal session', async () => {
    const res = await post(alice, `/apps/${alicesApp}/rotate-secret`, {}, csrfOf(bob.home.html));
    expect(res.status).toBe(403);
  });

  it('refuses a form post that is not urlencoded', async () => {
    const res = await alice.browser.agent
      .post(`${PORTAL}/apps`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ csrf: csrfOf(alice.home.html), ...VALID_APP }))
      .redirects(0);
    expect(res.status).toBe(415);
  });
});

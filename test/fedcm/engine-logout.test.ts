// A sign-out through the engine's end-session endpoint (an application's "sign out" button) clears the
// FedCM cookie and tells the browser `Set-Login: logged-out`, as the account page's sign-out does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieName, startSignedInSession } from '../../src/provider/engine.ts';
import { startFedcmWorld, type FedcmWorld } from './fedcm-service.ts';
import { idpRequest } from './idp-request.ts';

let world: FedcmWorld;
beforeAll(async () => {
  world = await startFedcmWorld();
}, 60_000);
afterAll(() => world?.stop());

describe('sign-out at the end-session endpoint', () => {
  it('clears the FedCM cookie and sends Set-Login: logged-out', async () => {
    const { provider } = world.service;
    const session = await startSignedInSession(provider, world.user.id, 3600);
    const name = sessionCookieName(provider);
    const sign = (value: string) => (world.service.app.keys as unknown as { sign(data: string): string }).sign(value);
    const cookie = `${name}=${session.id}; ${name}.sig=${sign(`${name}=${session.id}`)}`;
    const prompt = await idpRequest(world, '/oauth/logout', { headers: { Cookie: cookie } });
    expect(prompt.status).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(prompt.text)?.[1];
    expect(xsrf).toBeTruthy();
    const confirm = await idpRequest(world, '/oauth/logout/confirm', { form: { xsrf: xsrf!, logout: 'yes' }, headers: { Cookie: cookie } });
    expect(confirm.status).toBeLessThan(400);
    expect(confirm.headers['set-login']).toBe('logged-out');
    expect(String(confirm.headers['set-cookie'])).toMatch(/signin\.fedcm=;.*path=\/fedcm.*samesite=none/i);
  });
});

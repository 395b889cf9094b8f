// The consent screen: refusal, partial consent, and consent remembered per user and application.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { Browser, signInAndConsent } from '../support/browser.ts';
import { signIn, userinfo } from '../support/flow.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

describe('consent', () => {
  it('shows the application name, the required scopes as shared and one toggle per optional scope', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient({ name: 'Marché de Cocody', description: 'Vos courses livrées' });
    const rp = await relyingParty(svc.url, client);
    const { pages } = await signIn(svc.url, rp, user);
    const consent = pages.find((p) => /\/consent"/.test(p.html))!;
    expect(consent.html).toContain('Marché de Cocody');
    expect(consent.html).toContain('Vos courses livrées');
    for (const scope of ['openid', 'email', 'profile']) expect(consent.html).toMatch(new RegExp(`name="scope"[^>]*value="${scope}"`));
    // openid and email are always shared: sent by the form without a switch; profile has its switch.
    for (const scope of ['openid', 'email']) expect(consent.html).toMatch(new RegExp(`type="hidden" name="scope" value="${scope}"`));
    expect(consent.html).not.toMatch(/type="checkbox"[^>]*value="(openid|email)"/);
    expect(consent.html).toMatch(/type="checkbox"[^>]*name="scope" value="profile"/);
    expect(consent.html).toContain('Toujours partagé');
    expect(consent.html).toContain('sont nécessaires à Marché de Cocody pour vous connecter');
  });

  it('redirects with access_denied and the state when the user refuses', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const start = await rp.start();
    const { callback } = await signInAndConsent(new Browser(svc.url), start.url, user, { refuse: true });
    expect(callback.origin + callback.pathname).toBe(client.redirectUri);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(start.state);
    expect(callback.searchParams.get('iss')).toBe(svc.url);
    expect(callback.searchParams.has('code')).toBe(false);
  });

  it('removes an un-ticked scope from the granted scope and its claims from userinfo', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const { tokens } = await signIn(svc.url, rp, user, { scopes: ['openid', 'email'] });
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);
    const profile = (await userinfo(svc.url, tokens.access_token)).json;
    expect(profile).toHaveProperty('email');
    expect(profile).not.toHaveProperty('username');
    expect(profile).not.toHaveProperty('first_name');
  });

  it('remembers consent per user and application, in a new browser session too', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    await signIn(svc.url, rp, user);
    const again = await signIn(svc.url, rp, user, { browser: new Browser(svc.url) });
    expect(again.pages.some((p) => /\/consent"/.test(p.html))).toBe(false);
    expect(again.tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
  });

  it('asks again when the application requests a scope not granted before', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const browser = new Browser(svc.url);
    await signIn(svc.url, rp, user, { browser, params: { scope: 'openid email' } });
    const wider = await signIn(svc.url, rp, user, { browser, params: { scope: 'openid email profile' } });
    expect(wider.pages.some((p) => /\/consent"/.test(p.html))).toBe(true);
    expect(wider.tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
  });

  it('asks again for a scope the user refused before', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const browser = new Browser(svc.url);
    await signIn(svc.url, rp, user, { browser, scopes: ['openid', 'email'] });
    const again = await signIn(svc.url, rp, user, { browser });
    expect(again.pages.some((p) => /\/consent"/.test(p.html))).toBe(true);
  });

  it('with prompt=login, asks to sign in once, then for consent, then returns to the application', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const browser = new Browser(svc.url);
    await signIn(svc.url, rp, user, { browser });
    const again = await signIn(svc.url, rp, user, { browser, params: { prompt: 'login consent' } });
    expect(again.pages.filter((p) => /name="password"/.test(p.html))).toHaveLength(1);
    expect(again.pages.filter((p) => /\/consent"/.test(p.html))).toHaveLength(1);
    expect(again.tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
  });

  it('asks again with prompt=consent', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const browser = new Browser(svc.url);
    await signIn(svc.url, rp, user, { browser });
    const forced = await signIn(svc.url, rp, user, { browser, params: { prompt: 'consent' }, scopes: ['openid', 'email'] });
    expect(forced.pages.some((p) => /\/consent"/.test(p.html))).toBe(true);
    expect(forced.tokens.scope).toBe('openid email');
  });
});

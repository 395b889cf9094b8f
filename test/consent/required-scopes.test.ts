// The scopes every application registers as required (openid, email) cannot be switched off on the
// consent screen: whatever the form sends, they are granted, and the application gets the address.
// Optional scopes (profile) follow their switch; refusing refuses the whole request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, signInAndConsent, type Page } from '../support/browser.ts';
import { signIn, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

describe('required scopes on the consent screen', () => {
  it('grants email even when the form leaves it out, and the application receives the address', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const { tokens } = await signIn(svc.url, rp, user, { scopes: ['openid'] });
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);
    const profile = (await userinfo(svc.url, tokens.access_token)).json;
    expect(profile.email).toBe(user.email);
    expect(profile).not.toHaveProperty('username');
  });

  it('keeps a switch for profile, on by default, and its value shown beside it', async () => {
    const user = await svc.createUser({ firstName: 'Ndèye' });
    const rp = await relyingParty(svc.url, await svc.createClient({ name: 'Dakar Vélo' }));
    const browser = new Browser(svc.url);
    const login = (await browser.open((await rp.start()).url)) as Page;
    const consent = await browser.submit(login, /\/login$/, { email: user.email, password: user.password });
    expect(isPage(consent)).toBe(true);
    const html = (consent as Page).html;
    expect(html).toMatch(/<input type="checkbox" class="toggle" id="scope-profile" name="scope" value="profile" checked/);
    expect(html).toContain(user.email);
    expect(html).toContain(`${user.username} · Ndèye`);
  });

  it('refuses the whole request with Refuser, whatever was switched', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const { callback } = await signInAndConsent(new Browser(svc.url), (await rp.start()).url, user, { refuse: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.has('code')).toBe(false);
  });
});

// "Ce n'est pas vous ? Changer de compte": from the consent screen, back to the login of the same
// authorization request; signing in with another account goes on for that account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

describe('changing account on the consent screen', () => {
  it('asks who signs in again, and the application gets the other account', async () => {
    const first = await svc.createUser();
    const second = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const start = await rp.start();
    const browser = new Browser(svc.url);
    const login = (await browser.open(start.url)) as Page;
    const consent = (await browser.submit(login, /\/login$/, { email: first.email, password: first.password })) as Page;
    expect(consent.html).toMatch(new RegExp(`Compte utilisé\\s:\\s${first.email.replaceAll('.', '\\.')}`));
    expect(consent.html).toMatch(/Ce n’est pas vous\s\?/);
    // A button of its own form: the interaction's URL, as every interaction form.
    const again = await browser.submit(consent, /\/switch-account$/, {});
    expect(isPage(again) && /name="password"/.test(again.html)).toBe(true);
    const secondConsent = (await browser.submit(again as Page, /\/login$/, { email: second.email, password: second.password })) as Page;
    expect(secondConsent.html).toMatch(new RegExp(`Compte utilisé\\s:\\s${second.email.replaceAll('.', '\\.')}`));
    const back = await browser.submit(secondConsent, /\/consent$/, { scope: ['openid', 'email'] });
    expect(back).toBeInstanceOf(URL);
    const callback = back as URL;
    // The same request: the application's state comes back, and its PKCE verifier redeems the code.
    expect(callback.searchParams.get('state')).toBe(start.state);
    const tokens = await rp.redeem(callback, start);
    expect((await userinfo(svc.url, tokens.access_token)).json.email).toBe(second.email);
  });
});

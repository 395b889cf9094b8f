// RP-initiated logout: a localized confirmation page, then the user is signed out of the service and
// sent back to the application with its state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { isPage, type Page } from '../support/browser.ts';
import { signIn } from '../support/flow.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

function hiddenFields(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe('logout', () => {
  it('asks in French, signs the user out and returns to the application', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const { browser, tokens } = await signIn(svc.url, rp, user);

    const query = new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: client.redirectUri, state: 'bye' });
    const page = (await browser.open(`/oauth/logout?${query}`)) as Page;
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<html lang="fr"/);
    expect(page.html).toContain('Voulez-vous vous déconnecter');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const back = await browser.submit(page, /\/oauth\/logout\/confirm$/, { ...hiddenFields(page.html), logout: 'yes' });
    expect(back).toBeInstanceOf(URL);
    expect((back as URL).searchParams.get('state')).toBe('bye');

    // Signed out: a new authorization shows the login form again.
    const again = await browser.open((await rp.start()).url);
    expect(isPage(again) && /name="password"/.test(again.html)).toBe(true);
  });

  it('shows a localized page after logout without a return address', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const { browser } = await signIn(svc.url, rp, user);
    const page = (await browser.open('/oauth/logout?ui_locales=en')) as Page;
    expect(page.html).toContain('Do you want to sign out?');
    const done = (await browser.submit(page, /\/oauth\/logout\/confirm$/, { ...hiddenFields(page.html), logout: 'yes' })) as Page;
    expect(done.status).toBe(200);
    expect(done.html).toMatch(/<html lang="(en|fr)"/);
  });
});

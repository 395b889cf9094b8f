// A single-page application has no secret: a page served at its redirect URI is all that identifies it.
// Its users are therefore asked for consent at every authorization, as for a mobile app, unless an
// operator verified the application (and so its redirect hosts) and every redirect URI is https. Web
// applications keep their remembered consent; mobile apps are still asked every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientInput } from '../../src/clients/validate.ts';
import { Browser } from '../support/browser.ts';
import { signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const asked = (flow: { pages: Array<{ html: string }> }): boolean => flow.pages.some((p) => /\/consent"/.test(p.html));

/** Two authorizations of the same user to `client`: the second in the same browser, a third in a new one. */
async function authorizeTwice(input: Partial<ClientInput>, options: { verified?: boolean } = {}) {
  const client = await svc.createClient(input);
  if (options.verified) await svc.service.context.clients.setVerified(client.clientId, true);
  const user = await svc.createUser();
  const rp = await relyingParty(svc.url, client);
  const browser = new Browser(svc.url);
  const first = await signIn(svc.url, rp, user, { browser });
  const second = await signIn(svc.url, rp, user, { browser });
  const elsewhere = await signIn(svc.url, rp, user, { browser: new Browser(svc.url) });
  return { client, user, rp, browser, first, second, elsewhere };
}

describe('consent for single-page applications', () => {
  it('asks again at every authorization of a single-page app no operator has verified', async () => {
    const { first, second, elsewhere } = await authorizeTwice({ appType: 'spa', redirectUris: ['https://tableau.example.org/callback'] });
    expect(asked(first)).toBe(true);
    expect(asked(second)).toBe(true);
    expect(asked(elsewhere)).toBe(true);
    // Each answer still gives the application its code and tokens.
    expect(second.tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
  });

  it('answers a silent authorization (prompt=none) of an unverified single-page app with consent_required', async () => {
    const { rp, browser } = await authorizeTwice({ appType: 'spa', redirectUris: ['https://tableau.example.org/callback'] });
    const start = await rp.start({ prompt: 'none' });
    const callback = await browser.open(start.url);
    expect(callback).toBeInstanceOf(URL);
    const answer = callback as URL;
    expect(answer.searchParams.get('error')).toBe('consent_required');
    expect(answer.searchParams.get('state')).toBe(start.state);
    expect(answer.searchParams.has('code')).toBe(false);
  });

  it('remembers the consent to a verified single-page app whose redirect URIs are all https', async () => {
    const { first, second, elsewhere } = await authorizeTwice(
      { appType: 'spa', redirectUris: ['https://tableau.example.org/callback', 'https://admin.example.org/callback'] },
      { verified: true },
    );
    expect(asked(first)).toBe(true);
    expect(asked(second)).toBe(false);
    expect(asked(elsewhere)).toBe(false);
    expect(second.tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
  });

  it('asks every time when a verified single-page app also has an http loopback URI', async () => {
    const { second } = await authorizeTwice(
      { appType: 'spa', redirectUris: ['https://tableau.example.org/callback', 'http://localhost:5173/callback'] },
      { verified: true },
    );
    expect(asked(second)).toBe(true);
  });

  it('asks again once the verification is removed, or ended by a redirect URI on a new host', async () => {
    const { client, user, rp, browser } = await authorizeTwice(
      { appType: 'spa', redirectUris: ['https://tableau.example.org/callback'] },
      { verified: true },
    );
    const { clients } = svc.service.context;
    await clients.setVerified(client.clientId, false);
    expect(asked(await signIn(svc.url, rp, user, { browser }))).toBe(true);

    await clients.setVerified(client.clientId, true);
    // Another path on the same host keeps the verification; a host the operator did not check ends it.
    const samePath = await clients.update(client.clientId, {
      redirectUris: ['https://tableau.example.org/callback', 'https://tableau.example.org/other'],
    });
    expect(samePath?.verifiedAt).not.toBeNull();
    expect(asked(await signIn(svc.url, rp, user, { browser }))).toBe(false);
    const newHost = await clients.update(client.clientId, {
      redirectUris: ['https://tableau.example.org/callback', 'https://ailleurs.example.net/callback'],
    });
    expect(newHost?.verifiedAt).toBeNull();
    expect(asked(await signIn(svc.url, rp, user, { browser }))).toBe(true);
  });

  it('still remembers the consent to a web application', async () => {
    const { second, elsewhere } = await authorizeTwice({ appType: 'web', redirectUris: ['https://site.example.org/callback'] });
    expect(asked(second)).toBe(false);
    expect(asked(elsewhere)).toBe(false);
  });

  it('still asks a mobile app’s users every time, verified or not', async () => {
    for (const verified of [false, true]) {
      const { first, second } = await authorizeTwice({ appType: 'mobile', redirectUris: ['com.example.taxi:/callback'] }, { verified });
      expect(asked(first), `verified: ${verified}`).toBe(true);
      expect(asked(second), `verified: ${verified}`).toBe(true);
    }
  });
});

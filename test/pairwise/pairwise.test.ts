// Per-client pairwise `sub`: different for two applications on the same host, stable for one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { signIn } from '../support/flow.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

describe('pairwise sub', () => {
  it('gives one user different identifiers in two applications on the same host', async () => {
    const user = await svc.createUser();
    const a = await relyingParty(svc.url, await svc.createClient({ redirectUris: ['https://apps.example.org/a/cb'] }));
    const b = await relyingParty(svc.url, await svc.createClient({ redirectUris: ['https://apps.example.org/b/cb'] }));
    const subA = (await signIn(svc.url, a, user)).tokens.claims()!.sub;
    const subB = (await signIn(svc.url, b, user)).tokens.claims()!.sub;
    expect(subA).not.toBe(subB);
    expect(subA).not.toBe(user.id);
    expect(subB).not.toBe(user.id);
  });

  it('gives one application the same identifier for one user, sign-in after sign-in', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const first = await signIn(svc.url, rp, user);
    const second = await signIn(svc.url, rp, user);
    expect(second.tokens.claims()!.sub).toBe(first.tokens.claims()!.sub);
  });

  it('accepts an application whose redirect URIs span several hosts, still per client', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient({ redirectUris: ['https://one.example.org/cb', 'https://two.example.net/cb'] });
    const rp = await relyingParty(svc.url, client);
    const viaOne = await signIn(svc.url, rp, user);
    const other = await relyingParty(svc.url, { ...client, redirectUri: 'https://two.example.net/cb' });
    const viaTwo = await signIn(svc.url, other, user);
    expect(viaTwo.tokens.claims()!.sub).toBe(viaOne.tokens.claims()!.sub);
  });
});

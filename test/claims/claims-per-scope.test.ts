// Minimal claims: each scope releases its own claims and nothing else leaves the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { signIn, userinfo } from '../support/flow.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

async function profileFor(scope: string) {
  const user = await svc.createUser();
  const client = await svc.createClient();
  const rp = await relyingParty(svc.url, client);
  const { tokens } = await signIn(svc.url, rp, user, { params: { scope } });
  return { user, tokens, profile: (await userinfo(svc.url, tokens.access_token)).json };
}

describe('claims per scope', () => {
  it('openid alone gives only sub', async () => {
    const { profile, tokens } = await profileFor('openid');
    expect(Object.keys(profile)).toEqual(['sub']);
    expect(tokens.scope).toBe('openid');
  });

  it('email adds email and email_verified (a boolean)', async () => {
    const { profile, user } = await profileFor('openid email');
    expect(Object.keys(profile).sort()).toEqual(['email', 'email_verified', 'sub']);
    expect(profile.email).toBe(user.email);
    expect(profile.email_verified).toBe(true);
  });

  it('profile adds username and first_name only', async () => {
    const { profile, user } = await profileFor('openid profile');
    expect(Object.keys(profile).sort()).toEqual(['first_name', 'sub', 'username']);
    expect(profile.first_name).toBe(user.firstName);
  });

  it('refuses a scope the application did not register, with an error redirect', async () => {
    const client = await svc.createClient({ scopes: ['openid', 'email'] });
    const rp = await relyingParty(svc.url, client);
    const start = await rp.start({ scope: 'openid email profile' });
    const { Browser } = await import('../support/browser.ts');
    const back = await new Browser(svc.url).open(start.url);
    expect(back).toBeInstanceOf(URL);
    const url = back as URL;
    expect(url.searchParams.get('error')).toBe('invalid_scope');
    expect(url.searchParams.get('state')).toBe(start.state);
  });
});

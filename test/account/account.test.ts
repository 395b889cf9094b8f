// The account page: signed in through the engine session (an authorization's or its own form), it
// lists the applications, revokes one (its refresh token then fails), changes the password, and signs
// out of every session, sessions in Redis included. Every form is protected against forgery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { freshRedis, type FreshRedis } from '../support/databases.ts';
import { refreshGrant, signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
let redis: FreshRedis;
beforeAll(async () => {
  redis = await freshRedis();
  svc = await startTestService({ storage: { kind: 'embedded', dataDir: 'memory://', redis: redis.config } });
});
afterAll(async () => {
  await svc.stop();
  await redis.cleanup();
});

const csrfOf = (page: Page) => page.html.match(/name="csrf" value="([^"]+)"/)![1];

async function accountPage(browser: Browser): Promise<Page> {
  const page = await browser.open('/account');
  if (!isPage(page)) throw new Error('expected a page');
  return page;
}

async function signInToAccount(browser: Browser, user: { email: string; password: string }): Promise<Page> {
  const form = await accountPage(browser);
  return (await browser.submit(form, /\/account\/login$/, { csrf: csrfOf(form), email: user.email, password: user.password })) as Page;
}

describe('account page', () => {
  it('shows its own sign-in form when signed out, and signs in without an OAuth request', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    const form = await accountPage(browser);
    expect(form.html).toContain('Mon compte');
    expect(form.html).toMatch(/action="\/account\/login"/);
    expect(form.headers['set-cookie']?.toString()).toMatch(/csrf=[^;]+;.*samesite=lax.*httponly/i);
    const page = await signInToAccount(browser, user);
    expect(page.html).toContain(`Connecté avec ${user.email}`);
    expect(page.html).toContain('Vous n’avez partagé vos informations avec aucune application.');
  });

  it('refuses a wrong password with the same message as the login page', async () => {
    const user = await svc.createUser();
    const page = await signInToAccount(new Browser(svc.url), { email: user.email, password: 'not it at all' });
    expect(page.status).toBe(400);
    expect(page.html).toContain('Adresse e\u2011mail ou mot de passe incorrect.');
  });

  it('refuses every form posted without the anti-forgery token', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    await signInToAccount(browser, user);
    const selfService = ['/account/profile', '/account/email', '/account/email/confirm', '/account/export', '/account/delete'];
    for (const path of ['/account/login', '/account/revoke', '/account/password', '/account/sessions/end', ...selfService]) {
      const res = await browser.agent
        .post(path)
        .type('form')
        .send({ csrf: 'x'.repeat(43), client_id: 'a', email: user.email, password: user.password, confirm: 'yes' });
      expect(res.status, path).toBe(403);
    }
    // Not even a forged deletion with the password and the confirmation goes through.
    expect(await svc.service.context.accounts.findById(user.id)).toBeDefined();
  });

  it('lists the applications, scopes and date; revoking one kills its refresh token', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient({ name: 'Boutique Plateau' });
    const rp = await relyingParty(svc.url, client);
    const browser = new Browser(svc.url);
    // Signed in by the authorization itself: the account page shares the engine session.
    const { tokens } = await signIn(svc.url, rp, user, { browser, scopes: ['openid', 'email'] });
    expect(tokens.refresh_token).toBeTruthy();

    const page = await accountPage(browser);
    expect(page.html).toContain('Boutique Plateau');
    expect(page.html).toContain('Partagé\u00a0: Vous identifier, Votre adresse e\u2011mail');
    expect(page.html).toMatch(/Depuis le \d{1,2} \S+ \d{4}/);
    expect(page.html).not.toContain('Votre profil');

    const after = (await browser.submit(page, /\/account\/revoke$/, { csrf: csrfOf(page), client_id: client.clientId })) as Page;
    expect(after.html).toContain('L’accès de Boutique Plateau a été retiré.');
    expect(after.html).toContain('aucune application');

    const refresh = await refreshGrant(svc.url, client, tokens.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');
    // And the application must ask again.
    const again = await browser.open((await rp.start()).url);
    expect(isPage(again) && again.html).toContain('/consent"');
  });

  it("leaves the service's own applications out of the list: signing in to the developer portal is not sharing", async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    // The portal signs its owners in through the ordinary login page; its consent is recorded without a screen.
    const login = await browser.open(`${svc.url}/portal/login`);
    if (!isPage(login)) throw new Error('expected the login page');
    const portal = await browser.submit(login, /\/login$/, { email: user.email, password: user.password });
    expect(isPage(portal) && portal.url).toBe(`${svc.url}/portal/`);
    expect(await svc.service.context.consents.listForAccount(user.id)).toHaveLength(1);

    const page = await accountPage(browser);
    expect(page.html).toContain(`Connecté avec ${user.email}`);
    expect(page.html).toContain('Vous n’avez partagé vos informations avec aucune application.');
    expect(page.html).not.toContain('Portail développeurs');
  });

  it('changes the password only with the current one, under the password rules', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    const page = await signInToAccount(browser, user);
    const wrong = (await browser.submit(page, /\/account\/password$/, {
      csrf: csrfOf(page),
      current_password: 'nope nope nope',
      new_password: 'une toute nouvelle phrase',
    })) as Page;
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('Le mot de passe actuel est incorrect.');
    const weak = (await browser.submit(page, /\/account\/password$/, {
      csrf: csrfOf(page),
      current_password: user.password,
      new_password: 'password123',
    })) as Page;
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('trop courant');
    const ok = (await browser.submit(page, /\/account\/password$/, {
      csrf: csrfOf(page),
      current_password: user.password,
      new_password: 'une toute nouvelle phrase',
    })) as Page;
    expect(ok.html).toContain('Votre mot de passe a été modifié.');
    expect(await svc.service.context.accounts.authenticate(user.email, 'une toute nouvelle phrase')).toBeDefined();
  });

  it("ends the applications' grants on a password change: a refresh token issued before fails after", async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const browser = new Browser(svc.url);
    const { tokens } = await signIn(svc.url, rp, user, { browser });
    expect(tokens.refresh_token).toBeTruthy();
    const page = await accountPage(browser);
    const ok = (await browser.submit(page, /\/account\/password$/, {
      csrf: csrfOf(page),
      current_password: user.password,
      new_password: 'une toute nouvelle phrase',
    })) as Page;
    expect(ok.html).toContain('les applications autorisées ont perdu leur accès');
    expect(ok.html).toContain('aucune application');

    const refresh = await refreshGrant(svc.url, client, tokens.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');
  });

  it('names a revoked application only for the user who revoked it, never from the query', async () => {
    const user = await svc.createUser();
    const other = await svc.createClient({ name: 'Banque Confidentielle' });
    const browser = new Browser(svc.url);
    await signInToAccount(browser, user);
    const forged = await browser.open(`/account?notice=revoked&client=${other.clientId}`);
    expect(isPage(forged) && forged.html).not.toContain('Banque Confidentielle');
    expect(isPage(forged) && forged.html).toContain('L’accès de l’application a été retiré.');
    // Signed out, nobody is named either.
    const signedOut = await new Browser(svc.url).open(`/account?notice=revoked&client=${other.clientId}`);
    expect(isPage(signedOut) && signedOut.html).not.toContain('Banque Confidentielle');
  });

  it('signs out of every session, in every browser, sessions in Redis included', async () => {
    const user = await svc.createUser();
    const rp = await relyingParty(svc.url, await svc.createClient());
    const phone = new Browser(svc.url);
    await signIn(svc.url, rp, user, { browser: phone });
    const laptop = new Browser(svc.url);
    const page = await signInToAccount(laptop, user);
    const sessionKeys = async () => Object.entries(await redis.dump()).filter(([k, v]) => k.includes('Session') && v.includes(user.id));
    expect((await sessionKeys()).length).toBeGreaterThanOrEqual(2);

    const out = (await laptop.submit(page, /\/account\/sessions\/end$/, { csrf: csrfOf(page) })) as Page;
    expect(out.html).toContain('Toutes vos sessions sont fermées et les applications autorisées ont perdu leur accès.');
    expect(out.html).toMatch(/action="\/account\/login"/);
    expect(await sessionKeys()).toEqual([]);
    // The phone's session is gone too: the application's next authorization asks for a login.
    const again = await phone.open((await rp.start()).url);
    expect(isPage(again) && again.html).toContain('name="password"');
  });
});

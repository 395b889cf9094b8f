import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalCallbackUrl, portalClientId } from '../../src/portal/portal-client.ts';
import { Browser, isPage } from '../support/browser.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { PORTAL, csrfOf, get, post, signInToPortal } from './support.ts';

describe('portal sign-in', () => {
  let ts: TestService;
  beforeAll(async () => {
    ts = await startTestService();
  });
  afterAll(() => ts.stop());

  it('shows a public landing page in French by default and in English on request', async () => {
    const fr = await new Browser(ts.url).agent.get(PORTAL);
    expect(fr.status).toBe(200);
    expect(fr.text).toContain('<html lang="fr">');
    expect(fr.text).toContain('Se connecter avec mon compte');
    expect(fr.text).toContain(`href="${PORTAL}/login"`);
    expect(fr.headers['content-security-policy']).toContain("script-src 'self'");
    expect(fr.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(fr.headers['cache-control']).toBe('no-store');
    const en = await new Browser(ts.url).agent.get(`${PORTAL}/`).set('Accept-Language', 'en-GB,en;q=0.9');
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain('Sign in with my account');
  });

  it('registers its own first-party client at start', async () => {
    const client = await ts.service.context.clients.get(portalClientId(ts.url, PORTAL));
    expect(client).toMatchObject({ redirectUris: [portalCallbackUrl(ts.url, PORTAL)], scopes: ['openid', 'email'], ownerId: null });
  });

  it('starts an authorization code flow with PKCE S256 towards the service itself', async () => {
    const res = await new Browser(ts.url).agent.get(`${PORTAL}/login`).redirects(0);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.location as string);
    expect(to.origin + to.pathname).toBe(`${ts.url}/oauth/authorize`);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: portalClientId(ts.url, PORTAL),
      response_type: 'code',
      redirect_uri: `${ts.url}${PORTAL}/callback`,
      scope: 'openid email',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.any(String),
    });
  });

  it('signs an owner in through the real login page, without a consent screen, and sets a signed HttpOnly cookie', async () => {
    const user = await ts.createUser();
    const browser = new Browser(ts.url, { 'Accept-Language': 'fr' });
    const login = await browser.open(`${ts.url}${PORTAL}/login`);
    if (!isPage(login)) throw new Error('expected the login page');
    expect(login.html).toContain('name="password"');
    expect(login.html).toContain('Portail développeurs');
    const res = await browser.agent
      .post(new URL(/action="([^"]+\/login)"/.exec(login.html)![1], ts.url).pathname)
      .type('form')
      .send({ email: user.email, password: user.password })
      .redirects(0);
    let location = res.headers.location as string;
    const visited: string[] = [];
    let cookies: string[] = [];
    for (let i = 0; i < 8 && !location.endsWith(`${PORTAL}/`); i += 1) {
      const hop = await browser.agent.get(new URL(location, ts.url).pathname + new URL(location, ts.url).search).redirects(0);
      visited.push(new URL(location, ts.url).pathname);
      expect(hop.status, `at ${location}: ${hop.text.slice(0, 300)}`).toBeGreaterThanOrEqual(300);
      if (hop.headers['set-cookie']) cookies = cookies.concat(hop.headers['set-cookie'] as unknown as string[]);
      location = hop.headers.location as string;
    }
    expect(visited.some((p) => p === `${PORTAL}/callback`)).toBe(true);
    const session = cookies.find((c) => c.startsWith('portal_session='));
    expect(session).toMatch(/path=\/portal/i);
    expect(session).toMatch(/httponly/i);
    expect(session).toMatch(/samesite=lax/i);
    expect(cookies.some((c) => c.startsWith('portal_session.sig='))).toBe(true);
    const home = await browser.agent.get(`${PORTAL}/`);
    expect(home.text).toContain(user.email);
    expect(home.text).toContain('Mes applications');
  });

  it('never shows the consent screen to a returning owner in a new browser either', async () => {
    const owner = await signInToPortal(ts);
    const again = new Browser(ts.url);
    const login = await again.open(`${ts.url}${PORTAL}/login`);
    if (!isPage(login)) throw new Error('expected the login page');
    const home = await again.submit(login, /\/login$/, { email: owner.email, password: owner.password });
    expect(isPage(home) && home.url).toBe(`${ts.url}${PORTAL}/`);
    expect(isPage(home) && home.html).toContain(owner.email);
  });

  it('refuses a callback whose state does not match, and a code used twice', async () => {
    const owner = await signInToPortal(ts);
    const start = await owner.browser.agent.get(`${PORTAL}/login`).redirects(0);
    const authorize = new URL(start.headers.location as string);
    const toCallback = await owner.browser.agent.get(authorize.pathname + authorize.search).redirects(0);
    const callback = new URL(toCallback.headers.location as string);
    expect(callback.pathname).toBe(`${PORTAL}/callback`);

    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state');
    const stranger = new Browser(ts.url);
    const refused = await stranger.agent.get(forged.pathname + forged.search).redirects(0);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('La connexion au portail n’a pas abouti');

    const ok = await owner.browser.agent.get(callback.pathname + callback.search).redirects(0);
    expect(ok.status).toBe(303);
    // The state cookie is gone and the code is consumed: replaying the same callback signs nobody in.
    const replay = await owner.browser.agent.get(callback.pathname + callback.search).redirects(0);
    expect(replay.status).toBe(400);
  });

  it('shows a friendly failure when the owner cancels at the login page', async () => {
    const browser = new Browser(ts.url);
    const login = await browser.open(`${ts.url}${PORTAL}/login`);
    if (!isPage(login)) throw new Error('expected the login page');
    const back = await browser.submit(login, /\/abort$/, {});
    expect(isPage(back) && back.status).toBe(400);
    expect(isPage(back) && back.html).toContain('La connexion au portail n’a pas abouti');
  });

  it('sends visitors without a portal session to sign in, and refuses their posts', async () => {
    const visitor = { browser: new Browser(ts.url) };
    const page = await get(visitor, '/apps/new');
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe(`${PORTAL}/login`);
    expect((await post(visitor, '/apps', { name: 'x' }, 'anything')).status).toBe(403);
  });

  it('signs out of the portal with a CSRF-protected form', async () => {
    const owner = await signInToPortal(ts);
    expect((await post(owner, '/logout', {}, null)).status).toBe(403);
    expect((await get(owner, '/apps/new')).status).toBe(200);
    const out = await post(owner, '/logout', {}, csrfOf(owner.home.html));
    expect(out.status).toBe(303);
    expect((await get(owner, '/apps/new')).status).toBe(302);
  });

  it('answers unknown portal paths with a localized 404 page', async () => {
    const res = await new Browser(ts.url).agent.get(`${PORTAL}/nothing-here`).set('Accept-Language', 'en');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Page not found');
  });

  it('switches language with the header links', async () => {
    const browser = new Browser(ts.url);
    const res = await browser.agent.get(`${PORTAL}/lang/en`).redirects(0);
    expect(res.status).toBe(303);
    expect((await browser.agent.get(`${PORTAL}/`)).text).toContain('<html lang="en">');
    expect((await browser.agent.get(`${PORTAL}/lang/de`)).status).toBe(404);
  });
});

// The portal for a mobile app or a single-page app (public clients: their examples send no secret, and
// work without it), and the consent screen's links (logo, privacy policy, terms): https URLs, each
// refusal named under its field, an emptied field removing its link.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, signInAndConsent } from '../support/browser.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csrfOf, get, post, registerApp, signInToPortal, VALID_APP } from './support.ts';

const decode = (html: string) =>
  html
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const block = (html: string, id: string) => decode(new RegExp(`<pre id="${id}">([\\s\\S]*?)</pre>`).exec(html)![1]);

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('portal: public applications', () => {
  it('tells a mobile app it needs no secret, and its token command works without one', async () => {
    const owner = await signInToPortal(ts);
    const { clientId, page } = await registerApp(owner, {
      ...VALID_APP,
      app_type: 'mobile',
      redirect_uris: 'com.example.baobab:/callback',
    });
    const html = page.text;
    expect(html).toContain('Cette application est publique');
    expect(html).toContain('token_endpoint_auth_method');
    const token = block(html, 'help-token');
    expect(token).not.toContain('client_secret');
    expect(block(html, 'help-refresh')).not.toContain('client_secret');

    // The command as printed, with the placeholders filled in by a real sign-in.
    const verifier = randomBytes(32).toString('base64url');
    const authorize = block(html, 'help-authorize')
      .replace('STATE', 'etat')
      .replace('CODE_CHALLENGE', createHash('sha256').update(verifier).digest('base64url'));
    const { callback } = await signInAndConsent(new Browser(ts.url), authorize, await ts.createUser());
    const values: Record<string, string> = { CODE: callback.searchParams.get('code')!, CODE_VERIFIER: verifier };
    const fields = [...token.matchAll(/^ {2}-d ('?)([^=]+)=(.*?)\1(?: \\)?$/gm)].map((m) => `${m[2]}=${values[m[3]] ?? m[3]}`);
    const res = await fetch(`${ts.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.join('&'),
    });
    expect(res.status).toBe(200);
    expect(fields.some((f) => f.startsWith(`client_id=${clientId}`))).toBe(true);
  });

  it('says on the form which types are public and which scopes users always share', async () => {
    const owner = await signInToPortal(ts);
    const form = await get(owner, '/apps/new');
    expect(form.text).toContain('applications publiques, qui s’authentifient avec PKCE seul');
    expect(form.text).toMatch(/openid et email sont toujours partagés/);
  });
});

describe('portal: the consent screen’s links', () => {
  it('stores the https links, shows them, and removes one that is emptied', async () => {
    const owner = await signInToPortal(ts);
    const links = {
      logo_uri: 'https://cdn.example.org/logo.png',
      policy_uri: 'https://example.org/confidentialite',
      tos_uri: 'https://example.org/conditions',
    };
    const { clientId, page } = await registerApp(owner, { ...VALID_APP, ...links });
    for (const url of Object.values(links)) expect(page.text).toContain(url);
    expect(page.text).toContain('Application non vérifiée');
    const stored = await ts.service.context.clients.get(clientId);
    expect(stored).toMatchObject({ logoUri: links.logo_uri, policyUri: links.policy_uri, tosUri: links.tos_uri, verifiedAt: null });

    const edit = await get(owner, `/apps/${clientId}/edit`);
    expect(edit.text).toContain(`value="${links.policy_uri}"`);
    const res = await post(owner, `/apps/${clientId}`, { ...VALID_APP, ...links, tos_uri: '' }, csrfOf(edit.text));
    expect(res.status).toBe(303);
    expect((await ts.service.context.clients.get(clientId))?.tosUri).toBeNull();
  });

  it('refuses a link that is not https, with the message under its field', async () => {
    const owner = await signInToPortal(ts);
    const res = await post(
      owner,
      '/apps',
      { ...VALID_APP, policy_uri: 'http://example.org/privacy', logo_uri: 'logo.png' },
      csrfOf(owner.home.html),
    );
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/«\shttp:\/\/example\.org\/privacy\s» doit utiliser https\./);
    expect(res.text).toMatch(/«\slogo\.png\s» n’est pas une adresse complète/);
    expect(res.text).toMatch(/id="policy_uri"[^>]*aria-invalid="true"/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyClientSecret } from '../../src/clients/credentials.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { VALID_APP, csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

describe('portal: registering an application', () => {
  let ts: TestService;
  let owner: Owner;
  let english: Owner;
  beforeAll(async () => {
    ts = await startTestService();
    owner = await signInToPortal(ts);
    english = await signInToPortal(ts, { 'Accept-Language': 'en' });
  });
  afterAll(() => ts.stop());

  const submit = (who: Owner, fields: Record<string, string | string[]>) =>
    post(who, '/apps', { ...VALID_APP, ...fields }, csrfOf(who.home.html));

  it('offers the form with openid and email required and profile optional', async () => {
    const res = await get(owner, '/apps/new');
    expect(res.status).toBe(200);
    expect(res.text).toContain('name="redirect_uris"');
    for (const type of ['web', 'spa', 'mobile', 'server']) expect(res.text).toContain(`<option value="${type}"`);
    expect(res.text).toMatch(/<input type="hidden" name="scope" value="openid">/);
    expect(res.text).toMatch(/<input type="hidden" name="scope" value="email">/);
    expect(res.text).toMatch(/id="scope-email"[^>]*checked disabled/);
    expect(res.text).toMatch(/id="scope-profile"(?![^>]*disabled)/);
    expect(res.text).toMatch(/name="csrf" value="[\w-]{43}"/);
  });

  it.each([
    [{ name: '' }, 'name', 'Ce champ est obligatoire.'],
    [{ name: 'x'.repeat(101) }, 'name', 'Le nom ne doit pas dépasser 100 caractères.'],
    [{ description: '  ' }, 'description', 'Ce champ est obligatoire.'],
    [{ app_type: 'desktop' }, 'appType', 'Choisissez une valeur de la liste.'],
    [{ redirect_uris: '' }, 'redirectUris', 'Indiquez au moins une adresse de retour.'],
    [{ redirect_uris: '/callback' }, 'redirectUris', '« /callback » n’est pas une adresse absolue'],
    [{ redirect_uris: 'https://app.example.org/cb#top' }, 'redirectUris', 'ne doit pas contenir de fragment'],
    [{ redirect_uris: 'https://*.example.org/cb' }, 'redirectUris', 'ne doit pas contenir de joker'],
    [
      { redirect_uris: 'https://rp1.example@evil.test/cb' },
      'redirectUris',
      '« https://rp1.example@evil.test/cb » ne doit contenir ni nom d’utilisateur ni mot de passe',
    ],
    [{ redirect_uris: 'https://user:pw@rp.example/cb' }, 'redirectUris', 'ne doit contenir ni nom d’utilisateur ni mot de passe'],
    [{ redirect_uris: 'http://app.example.org/cb' }, 'redirectUris', '« http://app.example.org/cb » doit utiliser https'],
    [{ redirect_uris: 'com.example.app:/callback' }, 'redirectUris', 'doit utiliser https'],
    [{ app_type: 'mobile', redirect_uris: 'myapp:/callback' }, 'redirectUris', 'une application mobile utilise https'],
    [{ scope: ['openid', 'profile'] }, 'scopes', 'Le scope « email » est obligatoire.'],
    [{ scope: ['openid', 'email', 'address'] }, 'scopes', 'Le scope « address » n’existe pas.'],
  ])('refuses %j with a message under the %s field', async (fields, field, message) => {
    const before = (await ts.service.context.clients.list(owner.id)).length;
    const res = await submit(owner, fields);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Le formulaire contient des erreurs');
    const error = new RegExp(`<p class="field-error" id="${field}-error">([^<]*)</p>`).exec(res.text);
    expect(error?.[1]).toContain(message.replace(/ :/g, '\u00a0:').replace(/« /g, '«\u00a0').replace(/ »/g, '\u00a0»'));
    // What was typed stays in the form.
    if (typeof fields === 'object' && 'redirect_uris' in fields && fields.redirect_uris) expect(res.text).toContain(fields.redirect_uris);
    expect(await ts.service.context.clients.list(owner.id)).toHaveLength(before);
  });

  it('writes the messages in English for an English-speaking owner', async () => {
    const res = await submit(english, { name: '', redirect_uris: 'http://app.example.org/cb' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('This field is required.');
    expect(res.text).toContain('“http://app.example.org/cb” must use https');
  });

  it('accepts loopback http for a single-page app, several hosts, and the RFC 8252 forms for a mobile app', async () => {
    // http on a loopback address is for development of single-page and mobile apps: a web application needs https.
    const spa = await submit(owner, {
      app_type: 'spa',
      redirect_uris: 'http://localhost:8080/cb\nhttp://127.0.0.1:3000/cb\nhttps://a.example.org/cb\nhttps://b.example.net/cb',
    });
    expect(spa.status).toBe(303);
    const web = await submit(owner, { redirect_uris: 'https://a.example.org/cb\nhttps://b.example.net/cb' });
    expect(web.status).toBe(303);
    const mobile = await submit(owner, {
      app_type: 'mobile',
      redirect_uris: 'com.example.app:/callback\nhttps://app.example.org/cb\nhttp://127.0.0.1/cb',
    });
    expect(mobile.status).toBe(303);
  });

  it('shows the client_id and the client_secret once, with a copy button and a warning, then never again', async () => {
    const { clientId, clientSecret, location, page } = await registerApp(owner);
    // The secret never travels in a URL.
    expect(location).not.toContain(clientSecret);
    expect(page.text).toContain('Application enregistrée.');
    expect(page.text).toContain('il ne sera plus jamais affiché');
    expect(page.text).toMatch(/<button type="button" class="button copy" data-copy="client-secret"/);
    expect(page.text).toContain(`<code id="client-id">${clientId}</code>`);
    const stored = await ts.service.context.clients.get(clientId);
    expect(stored?.ownerId).toBe(owner.id);
    expect(verifyClientSecret(stored!.secretHash, clientSecret)).toBe(true);

    const reload = await get(owner, `/apps/${clientId}`);
    expect(reload.status).toBe(200);
    expect(reload.text).not.toContain(clientSecret);
    expect(reload.text).not.toContain('id="client-secret"');
    expect(reload.text).toContain(`<code id="client-id">${clientId}</code>`);
    expect(reload.text).toContain('n’est affiché qu’une fois');

    const list = await get(owner, '/');
    expect(list.text).toContain(`/apps/${clientId}`);
    expect(list.text).not.toContain(clientSecret);
  });

  it('does not show a secret meant for one application on another application page', async () => {
    const first = await registerApp(owner);
    const res = await post(owner, '/apps', VALID_APP, csrfOf(owner.home.html));
    const secondId = /\/apps\/(\w{32})$/.exec(res.headers.location as string)![1];
    const other = await get(owner, `/apps/${first.clientId}`);
    expect(other.text).not.toContain('id="client-secret"');
    // The flash was taken by that visit: the new application's page no longer shows its secret either.
    expect((await get(owner, `/apps/${secondId}`)).text).not.toContain('id="client-secret"');
  });

  it('does not show one owner’s new secret to another owner signing in on the same browser', async () => {
    const res = await submit(owner, {});
    const id = /\/apps\/(\w{32})$/.exec(res.headers.location as string)![1];
    const flash = (res.headers['set-cookie'] as unknown as string[]).filter((c) => c.startsWith('portal_flash'));
    const other = await signInToPortal(ts);
    other.browser.agent.jar.setCookies(
      flash.map((c) => c.split(';')[0]),
      new URL(ts.url).hostname,
      '/portal',
    );
    const page = await get(other, `/apps/${id}`);
    expect(page.status).toBe(404);
    expect((await get(other, '/')).text).not.toContain('Application enregistrée.');
  });
});

// A server application (type `server`) in the portal: a backend calling for itself with client_credentials,
// registered without a redirect URI or a scope, whose page explains the grant; the CLI registers the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, workspace, type Workspace } from '../cli/support.ts';
import { postForm } from '../support/flow.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

const SERVER_APP = { name: 'Synchronisation', description: 'Copie les commandes chaque nuit', app_type: 'server' };

describe('portal: server applications', () => {
  let ts: TestService;
  let owner: Owner;
  let english: Owner;
  beforeAll(async () => {
    ts = await startTestService();
    owner = await signInToPortal(ts);
    english = await signInToPortal(ts, { 'Accept-Language': 'en' });
  });
  afterAll(() => ts.stop());

  it('explains the type on the form, in French and in English, and marks the fields it does not ask', async () => {
    const fr = await get(owner, '/apps/new');
    expect(fr.text).toContain('<option value="server">Service serveur (machine à machine)</option>');
    expect(fr.text).toContain('il obtient ses jetons avec le grant client_credentials');
    expect(fr.text).toContain('ni openid, ni email, ni profile');
    // The redirect URIs and the scopes sit in the part the stylesheet hides once `server` is chosen.
    expect(fr.text).toMatch(
      /<fieldset class="user-facing">[\s\S]*name="redirect_uris"[\s\S]*name="scope"[\s\S]*<\/fieldset>\s*<\/fieldset>/,
    );
    expect(fr.text).toContain('Pas pour un service serveur');
    const en = await get(english, '/apps/new');
    expect(en.text).toContain('<option value="server">Server application (machine to machine)</option>');
    expect(en.text).toContain('it gets its tokens with the client_credentials grant');
  });

  it('registers a server application without a redirect URI; its secret gets a token with client_credentials', async () => {
    const app = await registerApp(owner, SERVER_APP);
    expect(await ts.service.context.clients.get(app.clientId)).toMatchObject({ appType: 'server', redirectUris: [], scopes: [] });
    expect(app.page.text).toContain('client_credentials\u00a0: le service demande des jetons pour lui-même, sans utilisateur.');
    expect(app.page.text).toMatch(/id="help-client-credentials">[^<]*grant_type=client_credentials/);
    expect(app.page.text).not.toContain('id="help-authorize"');

    const token = await postForm(`${ts.url}/oauth/token`, {
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(token.status).toBe(200);
    expect(token.json.token_type).toBe('Bearer');
  });

  it('keeps no redirect URI or scope the hidden fields still send', async () => {
    // Without the stylesheet, the fields stay visible and may be filled in; the required scopes always are.
    const app = await registerApp(owner, { ...SERVER_APP, redirect_uris: 'https://app.example.org/cb', scope: ['openid', 'email'] });
    expect(await ts.service.context.clients.get(app.clientId)).toMatchObject({ redirectUris: [], scopes: [] });
  });

  it('edits a server application without asking for redirect URIs or scopes', async () => {
    const app = await registerApp(owner, SERVER_APP);
    const form = await get(owner, `/apps/${app.clientId}/edit`);
    expect(form.status).toBe(200);
    expect(form.text).not.toContain('name="redirect_uris"');
    expect(form.text).not.toContain('name="scope"');
    const saved = await post(owner, `/apps/${app.clientId}`, { name: 'Synchro', description: 'Toutes les nuits' }, csrfOf(form.text));
    expect(saved.status).toBe(303);
    expect(await ts.service.context.clients.get(app.clientId)).toMatchObject({
      name: 'Synchro',
      appType: 'server',
      redirectUris: [],
      scopes: [],
    });
  });

  it('still requires redirect URIs of the other types', async () => {
    const res = await post(owner, '/apps', { ...SERVER_APP, app_type: 'web', scope: ['openid', 'email'] }, csrfOf(owner.home.html));
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="redirectUris-error">Indiquez au moins une adresse de retour/);
  });
});

describe('signin client create --type server', { timeout: 60_000 }, () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('registers a server application without --redirect-uri or --scopes, and refuses them if given', async () => {
    const base = ['client', 'create', '--name', 'Batch', '--description', 'Nightly job', '--type', 'server', '--config', ws.config];
    const created = await cli([...base, '--json']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(created.stdout)).toMatchObject({ app_type: 'server', redirect_uris: [], scopes: [] });

    const refused = await cli([...base, '--redirect-uri', 'https://app.example.org/cb', '--scopes', 'openid']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      '--redirect-uri: https://app.example.org/cb: a server application (client_credentials) has no redirect URI and no scope',
    );
    expect(refused.stderr).toContain('--scopes: openid: a server application');
  });
});

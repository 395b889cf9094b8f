import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashClientSecret } from '../../src/clients/credentials.ts';
import { postForm, signIn, userinfo, refreshGrant } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { VALID_APP, csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

describe('portal: managing an application', () => {
  let ts: TestService;
  let smtp: SmtpSink;
  let owner: Owner;
  beforeAll(async () => {
    // A rotation and a deletion e-mail the owner (owner-notices.test.ts): to a real SMTP server, not the outbox folder.
    smtp = await startSmtpSink();
    ts = await startTestService({ mail: smtp.mailConfig() });
    owner = await signInToPortal(ts);
  });
  afterAll(async () => {
    await ts?.stop();
    await smtp?.stop();
  });

  const csrf = () => csrfOf(owner.home.html);
  /** A user signs in to the app registered in the portal; the app gets tokens with its credentials. */
  const tokensFor = async (app: { clientId: string; clientSecret: string }) => {
    const user = await ts.createUser();
    const rp = await relyingParty(ts.url, {
      ...app,
      redirectUri: 'https://app.example.org/callback',
      scopes: ['openid', 'email', 'profile'],
    });
    return (await signIn(ts.url, rp, user)).tokens;
  };

  it('edits name, description, redirect URIs and scopes, with field messages on errors', async () => {
    const { clientId } = await registerApp(owner);
    const form = await get(owner, `/apps/${clientId}/edit`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('value="Mon application"');
    expect(form.text).toContain('https://other.example.net/cb');
    expect(form.text).not.toContain('name="app_type"');

    const bad = await post(
      owner,
      `/apps/${clientId}`,
      { ...VALID_APP, redirect_uris: 'https://ok.example.org/cb\nftp://x.example.org/cb' },
      csrf(),
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('ftp://x.example.org/cb');
    expect(bad.text).toMatch(/id="redirectUris-error">[^<]*doit utiliser https/);

    const ok = await post(
      owner,
      `/apps/${clientId}`,
      { name: 'Nouveau nom', description: 'Nouvelle description', redirect_uris: 'https://new.example.org/cb', scope: ['openid', 'email'] },
      csrf(),
    );
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(`/portal/apps/${clientId}`);
    const page = await get(owner, `/apps/${clientId}`);
    expect(page.text).toContain('Modifications enregistrées.');
    expect(await ts.service.context.clients.get(clientId)).toMatchObject({
      name: 'Nouveau nom',
      description: 'Nouvelle description',
      redirectUris: ['https://new.example.org/cb'],
      scopes: ['openid', 'email'],
      appType: 'web',
    });
  });

  it('rotates the secret once confirmed: the new one is shown once, the old one fails at /oauth/token with 401', async () => {
    const app = await registerApp(owner);
    const tokens = await tokensFor(app);
    const confirm = await get(owner, `/apps/${app.clientId}/rotate-secret`);
    expect(confirm.status).toBe(200);
    const rotated = await post(owner, `/apps/${app.clientId}/rotate-secret`, {}, csrfOf(confirm.text));
    expect(rotated.status).toBe(303);
    expect(rotated.headers.location).toBe(`/portal/apps/${app.clientId}`);
    const page = await get(owner, `/apps/${app.clientId}`);
    expect(page.text).toContain('Nouveau secret généré');
    const newSecret = /id="client-secret">(\w{48})</.exec(page.text)![1];
    expect(newSecret).not.toBe(app.clientSecret);
    expect((await get(owner, `/apps/${app.clientId}`)).text).not.toContain(newSecret);

    const refresh = (secret: string) =>
      postForm(`${ts.url}/oauth/token`, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: app.clientId,
        client_secret: secret,
      });
    const old = await refresh(app.clientSecret);
    expect(old.status).toBe(401);
    expect(old.json.error).toBe('invalid_client');
    const current = await refresh(newSecret);
    expect(current.status).toBe(200);
  });

  it('deletes an application after a confirmation page, revoking its tokens and grants', async () => {
    const app = await registerApp(owner);
    const tokens = await tokensFor(app);
    expect((await userinfo(ts.url, tokens.access_token)).status).toBe(200);

    const confirm = await get(owner, `/apps/${app.clientId}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Cette action est définitive');
    const deleted = await post(owner, `/apps/${app.clientId}/delete`, {}, csrf());
    expect(deleted.status).toBe(303);
    expect(deleted.headers.location).toBe('/portal/');
    expect((await get(owner, '/')).text).toContain('L’application «\u00a0Mon application\u00a0» a été supprimée.');
    expect(await ts.service.context.clients.get(app.clientId)).toBeUndefined();
    expect((await get(owner, `/apps/${app.clientId}`)).status).toBe(404);

    expect((await userinfo(ts.url, tokens.access_token)).status).toBe(401);
    const refresh = await refreshGrant(ts.url, app, tokens.refresh_token!);
    // The client itself is gone, so the engine stops at client authentication.
    expect(refresh.status).toBe(401);
    expect(await ts.service.context.consents.listForClient(app.clientId)).toEqual([]);
  });

  it('revokes the refresh token itself on deletion (invalid_grant for an application registered again under the same id)', async () => {
    const app = await registerApp(owner);
    const tokens = await tokensFor(app);
    const grantId = (await ts.service.context.consents.listForClient(app.clientId))[0]?.grantId;
    expect(grantId).toBeTruthy();
    await post(owner, `/apps/${app.clientId}/delete`, {}, csrf());
    const adapters = ts.service.storage.adapterFactory({ refreshTokenReuseGrace: 0 });
    expect(await adapters('Grant').find(grantId!)).toBeUndefined();
    // Put a client back under the same id and secret: the refresh token must still be dead.
    await ts.service.context.db.query(
      `INSERT INTO clients (client_id, secret_hash, name, description, app_type, redirect_uris, scopes, owner_id)
       VALUES ($1, $2, 'x', 'x', 'web', $3, $4, NULL)`,
      [
        app.clientId,
        hashClientSecret(app.clientSecret),
        JSON.stringify(['https://app.example.org/callback']),
        JSON.stringify(['openid', 'email', 'profile']),
      ],
    );
    const refresh = await refreshGrant(ts.url, app, tokens.refresh_token!);
    expect(refresh.status).toBe(400);
    expect(refresh.json.error).toBe('invalid_grant');
  });
});

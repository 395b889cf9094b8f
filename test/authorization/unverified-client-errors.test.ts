// No open redirector through a self-registered application (RFC 9700 §4.11.2). Anyone signed in can
// register an application in the developer portal with the redirect URI of their choosing: until an
// operator verifies it (`signin client verify`), an authorization error for a visitor who is not signed
// in is the service's page, never a redirect there. A signed-in user, or one who went through the
// sign-in pages, still gets RFC 6749's redirects; so do the applications the operator created (CLI).
// On Postgres and Redis, with the real CLI beside the running service.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToAccount } from '../account/account-browser.ts';
import { CLIENT_ARGS, cli, serviceWithCli, type ServiceWithCli } from '../cli/support.ts';
import { registerApp, signInToPortal, VALID_APP } from '../portal/support.ts';
import { Browser, signInAndConsent } from '../support/browser.ts';
import { eventually } from '../support/eventually.ts';

const ATTACKER = 'https://attacker.test/cb';
let env: ServiceWithCli;
let portalApp: string;
beforeAll(async () => {
  env = await serviceWithCli();
  const owner = await signInToPortal(env.svc);
  ({ clientId: portalApp } = await registerApp(owner, { ...VALID_APP, redirect_uris: ATTACKER }));
}, 60_000);
afterAll(() => env.stop());

const authorizeUrl = (clientId: string, redirectUri: string, extra: Record<string, string> = {}) =>
  `/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    state: 'etat-7',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  })}`;

// A scope with a character RFC 6749 §3.3 excludes: invalid_scope for any application. (A scope the
// service does not know is ignored, as the engine ignores unknown parameters.)
const BOGUS_SCOPE = { scope: 'openid "admin"' };
const SILENT = { prompt: 'none' };

const visit = (path: string) => request(env.svc.url).get(path).set('Accept-Language', 'fr').set('Accept', 'text/html').redirects(0);

/** The page a visitor gets: an error page of the service, with nothing that leads to the application. */
function expectHeldPage(res: request.Response, title: string) {
  expect(res.status).toBe(400);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain('<html lang="fr">');
  expect(res.text).toContain(title);
  // Nothing leads there (the language links come back to this very request, on the service).
  expect(res.text).not.toMatch(/(href|action)="https:\/\/attacker\.test/);
}

/** The redirect an application gets: its own URI, the error and the issuer, in the query. */
function expectErrorRedirect(res: request.Response, redirectUri: string, error: string) {
  expect(res.status).toBe(303);
  const location = new URL(res.headers.location as string);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  expect(Object.fromEntries(location.searchParams)).toMatchObject({ error, state: 'etat-7', iss: env.svc.url });
}

async function cliOk(args: string[]) {
  const result = await cli([...args, '--config', env.ws.config]);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe('an application registered in the portal, not verified', { timeout: 120_000 }, () => {
  it('gets no redirect for a bogus scope: the visitor sees the page, in either response mode', async () => {
    expectHeldPage(await visit(authorizeUrl(portalApp, ATTACKER, BOGUS_SCOPE)), 'Demande non autorisée');
    const posted = await visit(authorizeUrl(portalApp, ATTACKER, { ...BOGUS_SCOPE, response_mode: 'form_post' }));
    expectHeldPage(posted, 'Demande non autorisée');
    expect(posted.text).not.toMatch(/<form/);
  });

  it('gets no redirect for prompt=none without a session: the page leads to signing in', async () => {
    const res = await visit(authorizeUrl(portalApp, ATTACKER, SILENT));
    expectHeldPage(res, 'Connexion requise');
    expect(res.text).toContain('href="/account"');
    expect(res.text).toContain('login_required');
  });

  it('gets its redirects once the user is seen: a signed-in session, or the sign-in pages on the way', async () => {
    const user = await env.svc.createUser();
    const browser = new Browser(env.svc.url, { 'Accept-Language': 'fr' });
    await signInToAccount(browser, user);
    // Silent authentication for a signed-in user: consent is still to be given, and the application hears so.
    const silent = await browser.agent.get(authorizeUrl(portalApp, ATTACKER, SILENT)).redirects(0);
    expectErrorRedirect(silent, ATTACKER, 'consent_required');
    // Refusing on the consent page sends the user back to the application with access_denied.
    const refused = await signInAndConsent(new Browser(env.svc.url), `${env.svc.url}${authorizeUrl(portalApp, ATTACKER)}`, user, {
      refuse: true,
    });
    expect(`${refused.callback.origin}${refused.callback.pathname}`).toBe(ATTACKER);
    expect(refused.callback.searchParams.get('error')).toBe('access_denied');
  });

  it('gets its redirects once an operator verified it with signin client verify', async () => {
    await cliOk(['client', 'verify', portalApp]);
    // Another process changed the application: the service hears of it through Postgres NOTIFY.
    await eventually(async () => (await visit(authorizeUrl(portalApp, ATTACKER, BOGUS_SCOPE))).status === 303, 'the verified application');
    expectErrorRedirect(await visit(authorizeUrl(portalApp, ATTACKER, BOGUS_SCOPE)), ATTACKER, 'invalid_scope');
    expectErrorRedirect(await visit(authorizeUrl(portalApp, ATTACKER, SILENT)), ATTACKER, 'login_required');

    await cliOk(['client', 'verify', portalApp, '--remove']);
    await eventually(
      async () => (await visit(authorizeUrl(portalApp, ATTACKER, BOGUS_SCOPE))).status === 400,
      'the unverified application',
    );
  });
});

describe('an application the operator created with the CLI', { timeout: 120_000 }, () => {
  it('gets RFC 6749 error redirects, without a session too', async () => {
    const created = await cliOk([...CLIENT_ARGS, '--json']);
    const { client_id: clientId } = JSON.parse(created.stdout) as { client_id: string };
    const redirectUri = 'https://notes.example/callback';
    expectErrorRedirect(await visit(authorizeUrl(clientId, redirectUri, BOGUS_SCOPE)), redirectUri, 'invalid_scope');
    expectErrorRedirect(await visit(authorizeUrl(clientId, redirectUri, SILENT)), redirectUri, 'login_required');
  });
});

// User administration from the CLI against a running service on Postgres and Redis, as an operator
// does it: what the user and the applications see after `signin user disable`, `enable`, `export`
// and `delete`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.ts';
import { fr } from '../../src/i18n/fr.ts';
import { cli, serviceWithCli, type ServiceWithCli } from '../cli/support.ts';
import { Browser, isPage } from '../support/browser.ts';
import { refreshGrant, signIn, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import type { TestService } from '../support/service.ts';

let env: ServiceWithCli;
let svc: TestService;
beforeAll(async () => {
  env = await serviceWithCli();
  svc = env.svc;
}, 60_000);
afterAll(() => env?.stop());

const signinCli = (...args: string[]) => cli([...args, '--config', env.ws.config]);

/** The page a browser reaches when it starts a new sign-in at the application. */
async function startSignIn(browser: Browser, client: Awaited<ReturnType<TestService['createClient']>>) {
  const page = await browser.open((await (await relyingParty(svc.url, client)).start()).url);
  if (!isPage(page)) throw new Error(`went straight back to the application: ${page.href}`);
  return page;
}

describe('signin user disable and enable', { timeout: 90_000 }, () => {
  it('refuses the password with a clear page, ends the sessions and the grants; enable lets the user back', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient();
    const { tokens, browser } = await signIn(svc.url, await relyingParty(svc.url, client), user);

    const disabled = await signinCli('user', 'disable', user.email);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toMatch(/1 session\(s\) ended, 1 application grant\(s\) revoked/);
    expect(disabled.log).toEqual([expect.objectContaining({ event: 'account.disabled', account_id: user.id, source: 'cli' })]);

    // The application's tokens no longer work.
    expect((await refreshGrant(svc.url, client, tokens.refresh_token!)).json.error).toBe('invalid_grant');
    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(401);
    // The browser is signed out: a new sign-in asks for the password, and the right one is refused.
    const login = await startSignIn(browser, client);
    expect(login.html).toMatch(/name="password"/);
    const refused = await browser.submit(login, /\/login$/, { email: user.email, password: user.password });
    if (!isPage(refused)) throw new Error('signed in although disabled');
    expect(refused.status).toBe(403);
    expect(refused.html).toContain(fr['error.accountDisabled.title']);
    // A wrong password says nothing of the account's state.
    const wrong = await browser.submit(await startSignIn(new Browser(svc.url), client), /\/login$/, {
      email: user.email,
      password: 'not the password',
    });
    expect(isPage(wrong) && wrong.status).toBe(400);
    expect(isPage(wrong) && wrong.html).not.toContain(fr['error.accountDisabled.title']);
    // The page speaks the browser's language.
    const english = new Browser(svc.url, { 'accept-language': 'en' });
    const englishPage = await english.submit(await startSignIn(english, client), /\/login$/, {
      email: user.email,
      password: user.password,
    });
    expect(isPage(englishPage) && englishPage.html).toContain(en['error.accountDisabled.message']);

    const listed = JSON.parse((await signinCli('user', 'list', '--json', '--search', user.username)).stdout) as Array<{
      id: string;
      disabled_at: string | null;
    }>;
    expect(listed).toEqual([expect.objectContaining({ id: user.id, disabled_at: expect.any(String) })]);

    expect((await signinCli('user', 'enable', user.id)).code).toBe(0);
    const again = await signIn(svc.url, await relyingParty(svc.url, client), user);
    expect((await userinfo(svc.url, again.tokens.access_token)).status).toBe(200);
  });
});

describe('signin user export and delete', { timeout: 90_000 }, () => {
  it('exports what is held about the user, and deletes the account with everything tied to it', async () => {
    const user = await svc.createUser();
    const client = await svc.createClient({ name: 'Carnet de notes' });
    const { tokens, browser } = await signIn(svc.url, await relyingParty(svc.url, client), user);
    const { client: owned } = await svc.service.context.clients.create({
      name: 'Appli de Fatou',
      description: 'Enregistrée dans le portail',
      appType: 'web',
      redirectUris: ['https://fatou.example.org/cb'],
      scopes: ['openid', 'email'],
      ownerId: user.id,
    });

    const exported = await signinCli('user', 'export', user.username);
    expect(exported.code, exported.stderr).toBe(0);
    const data = JSON.parse(exported.stdout) as Record<string, unknown>;
    expect(data).toMatchObject({
      account: {
        id: user.id,
        email: user.email,
        email_verified: true,
        username: user.username,
        first_name: user.firstName,
        disabled_at: null,
      },
      consents: [{ client_id: client.clientId, application: 'Carnet de notes', scopes: expect.arrayContaining(['openid', 'email']) }],
      sessions: { active: 1 },
      applications: [{ client_id: owned.clientId, name: 'Appli de Fatou', redirect_uris: ['https://fatou.example.org/cb'] }],
    });
    expect(exported.stdout).not.toMatch(/hash|secret|password/i);
    expect(exported.log).toEqual([expect.objectContaining({ event: 'account.exported', account_id: user.id })]);

    // It owns an application others may use: not deleted without saying what becomes of it.
    const refused = await signinCli('user', 'delete', user.email);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(owned.clientId);
    expect(refused.stderr).toContain('--with-applications');
    expect(await svc.service.context.accounts.findById(user.id)).toBeDefined();
    expect((await signinCli('user', 'delete', user.email, '--with-applications', '--keep-applications')).code).toBe(2);

    const deleted = await signinCli('user', 'delete', user.email, '--with-applications');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(owned.clientId);
    expect(deleted.log.map((line) => line.event)).toEqual(['account.deleted', 'application.deleted']);

    expect(await svc.service.context.accounts.findById(user.id)).toBeUndefined();
    expect(await svc.service.context.clients.get(owned.clientId)).toBeUndefined();
    expect(await svc.service.context.consents.listForAccount(user.id)).toEqual([]);
    expect((await refreshGrant(svc.url, client, tokens.refresh_token!)).json.error).toBe('invalid_grant');
    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(401);
    const left = await svc.service.context.db.query('SELECT 1 FROM account_sessions WHERE account_id = $1', [user.id]);
    expect(left.rowCount).toBe(0);
    // The browser's session is gone with the account: a new sign-in starts at the password.
    expect((await startSignIn(browser, client)).html).toMatch(/name="password"/);
    expect((await signinCli('user', 'show', user.id)).code).toBe(1);
  });
});

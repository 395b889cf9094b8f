// A browser session whose account was deleted meanwhile (by an administrator, through the CLI or
// another instance) is a signed-out session: prompt=none answers login_required, and a plain request
// shows the login page, where another account can sign in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPage } from '../support/browser.ts';
import { authorize } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

async function sessionOfDeletedAccount() {
  const client = await svc.createClient();
  const rp = await relyingParty(svc.url, client);
  const user = await svc.createUser();
  const { browser } = await authorize(svc.url, rp, user);
  // As `signin user delete` does: the row goes, the browser keeps its session cookie.
  expect(await svc.service.context.accounts.delete(user.id)).toBe(true);
  return { rp, browser, client };
}

describe('a session whose account is gone', () => {
  it('answers prompt=none with login_required, not a server error', async () => {
    const { rp, browser, client } = await sessionOfDeletedAccount();
    const start = await rp.start({ prompt: 'none' });
    const res = await browser.agent.get(new URL(start.url).pathname + new URL(start.url).search).redirects(0);
    expect(res.status).toBe(303);
    const callback = new URL(res.headers.location);
    expect(`${callback.origin}${callback.pathname}`).toBe(client.redirectUri);
    expect(callback.searchParams.get('error')).toBe('login_required');
  });

  it('shows the login page, where another account signs in and reaches the application', async () => {
    const { rp, browser } = await sessionOfDeletedAccount();
    const other = await svc.createUser();
    const start = await rp.start();
    const login = await browser.open(start.url);
    expect(isPage(login) && login.html).toMatch(/name="password"/);
    const { callback } = await authorize(svc.url, rp, other, { browser });
    expect(callback.searchParams.get('code')).toBeTruthy();
  });
});

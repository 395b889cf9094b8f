// The page of the verification link names the address it confirms, so that someone with several
// addresses knows which one the button is for; a link that no longer works names none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailTokenStore } from '../../src/accounts/email-tokens.ts';
import { Browser, type Page } from '../support/browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
let tokens: EmailTokenStore;
beforeAll(async () => {
  svc = await startTestService();
  tokens = new EmailTokenStore(svc.service.context.db);
});
afterAll(() => svc.stop());

describe('the verification link’s page', () => {
  it('shows the address being verified, in French and English, and the button still verifies it', async () => {
    const user = await svc.createUser({ email: `awa.${Date.now()}@example.org`, emailVerified: false });
    const token = await tokens.issue(user.id, 'verify-email', 3600);
    const browser = new Browser(svc.url, { 'Accept-Language': 'fr' });
    const page = (await browser.open(`/email/verify?token=${token}`)) as Page;
    expect(page.status).toBe(200);
    expect(page.html).toContain(`Confirmez que ${user.email} est bien votre adresse e\u2011mail.`);
    const english = (await new Browser(svc.url, { 'Accept-Language': 'en' }).open(`/email/verify?token=${token}`)) as Page;
    expect(english.html).toContain(`Confirm that ${user.email} is your e\u2011mail address.`);

    const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)![1];
    const done = (await browser.submit(page, /\/email\/verify$/, { csrf, token })) as Page;
    expect(done.status).toBe(200);
    expect((await svc.service.context.accounts.findById(user.id))?.emailVerified).toBe(true);
  });

  it('names no address for a link that no longer works, and offers a new one', async () => {
    const user = await svc.createUser({ emailVerified: false });
    const token = await tokens.issue(user.id, 'verify-email', 3600);
    await tokens.consume(token, 'verify-email');
    const page = (await new Browser(svc.url, { 'Accept-Language': 'fr' }).open(`/email/verify?token=${token}`)) as Page;
    expect(page.status).toBe(400);
    expect(page.html).not.toContain(user.email);
    expect(page.html).toContain('Recevoir un nouveau lien');
  });
});

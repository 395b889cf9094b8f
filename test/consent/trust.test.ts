// What the consent screen tells the user about who asks: "application non vérifiée" until an operator
// verifies the application; then its owner's e-mail domain and its logo (the page's policy naming that
// one image URL). Privacy policy and terms are linked when given; a new name or logo ends the verification.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, type Page } from '../support/browser.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const LOGO = 'https://cdn.studio-baobab.example.org/logo.png';
const POLICY = 'https://studio-baobab.example.org/confidentialite';
const TOS = 'https://studio-baobab.example.org/conditions';

async function registerApp() {
  const owner = await svc.createUser({ email: `dev.${Date.now()}@Studio-Baobab.example.org` });
  const { client, clientSecret } = await svc.service.context.clients.create({
    name: 'Baobab Notes',
    description: 'Des notes partagées',
    appType: 'web',
    redirectUris: ['https://notes.example.org/cb'],
    scopes: ['openid', 'email', 'profile'],
    ownerId: owner.id,
    logoUri: LOGO,
    policyUri: POLICY,
    tosUri: TOS,
  });
  return { clientId: client.clientId, clientSecret, redirectUri: client.redirectUris[0], scopes: client.scopes };
}

async function consentPage(client: Awaited<ReturnType<typeof registerApp>>): Promise<Page> {
  const user = await svc.createUser();
  const rp = await relyingParty(svc.url, client);
  const browser = new Browser(svc.url);
  const login = (await browser.open((await rp.start()).url)) as Page;
  return (await browser.submit(login, /\/login$/, { email: user.email, password: user.password })) as Page;
}

describe('trust on the consent screen', () => {
  it('marks an application no operator has verified, and shows no logo for it', async () => {
    const page = await consentPage(await registerApp());
    expect(page.html).toContain('Application non vérifiée');
    expect(page.html).not.toContain('studio-baobab.example.org</p>');
    expect(page.html).not.toContain(LOGO);
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:;");
    // The links the owner gave, opened apart from the sign-in.
    expect(page.html).toContain(`href="${POLICY}" target="_blank" rel="noopener noreferrer"`);
    expect(page.html).toContain(`href="${TOS}" target="_blank" rel="noopener noreferrer"`);
  });

  it('shows the owner’s e-mail domain and the logo once verified, the logo alone allowed by the policy', async () => {
    const client = await registerApp();
    await svc.service.context.clients.setVerified(client.clientId, true);
    const page = await consentPage(client);
    expect(page.html).toContain('Application vérifiée · publiée par studio-baobab.example.org');
    expect(page.html).not.toContain('Application non vérifiée');
    expect(page.html).toContain(`<img class="app-logo" src="${LOGO}"`);
    expect(page.headers['content-security-policy']).toContain(`img-src 'self' data: ${LOGO};`);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('ends the verification when the name or the logo changes, not when the description does', async () => {
    const { clients } = svc.service.context;
    const client = await registerApp();
    await clients.setVerified(client.clientId, true);
    expect((await clients.update(client.clientId, { description: 'Autre chose' }))?.verifiedAt).not.toBeNull();
    expect((await clients.update(client.clientId, { logoUri: 'https://cdn.example.org/other.png' }))?.verifiedAt).toBeNull();
    await clients.setVerified(client.clientId, true);
    expect((await clients.update(client.clientId, { name: 'Banque Populaire' }))?.verifiedAt).toBeNull();
  });

  it('refuses links that are not https URLs', async () => {
    const { clients } = svc.service.context;
    const input = { name: 'x', description: 'y', appType: 'web', redirectUris: ['https://x.example.org/cb'], scopes: ['openid', 'email'] };
    for (const [field, value] of [
      ['policyUri', 'http://x.example.org/policy'],
      ['tosUri', 'javascript:alert(1)'],
      ['logoUri', "https://x.example.org/a.png';script-src"],
      ['logoUri', 'pas une adresse'],
    ] as const) {
      await expect(clients.create({ ...input, [field]: value }), `${field} ${value}`).rejects.toMatchObject({
        errors: [expect.objectContaining({ field })],
      });
    }
  });
});

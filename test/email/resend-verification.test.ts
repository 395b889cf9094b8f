// A lost or expired verification link is not a dead end: a new one is sent from the expired-link page
// (same answer for any address), from the account page ("Renvoyer le lien") and with
// `signin user verify-email --resend EMAIL`, each within the per-address limit of every other e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, workspace, type Workspace } from '../cli/support.ts';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { userinfo } from '../support/flow.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { signIn } from '../support/flow.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

let svc: TestService;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  svc = await startTestService({ mail: smtp.mailConfig(), rateLimit: { mailPerAddress: { points: 2, windowSeconds: 3600 } } });
});
afterAll(async () => {
  await svc?.stop();
  await smtp?.stop();
});

const csrfOf = (page: Page) => /name="csrf" value="([^"]+)"/.exec(page.html)![1];

async function confirm(browser: Browser, link: string): Promise<Page> {
  const page = (await browser.open(link)) as Page;
  return (await browser.submit(page, /\/email\/verify$/, {
    csrf: csrfOf(page),
    token: /name="token" value="([^"]+)"/.exec(page.html)![1],
  })) as Page;
}

describe('a new verification link', () => {
  it('is offered by the page of a link that no longer works, and verifies the address', async () => {
    const user = await svc.createUser({ emailVerified: false });
    const browser = new Browser(svc.url);
    const expired = (await browser.open('/email/verify?token=lien-perime')) as Page;
    expect(expired.status).toBe(400);
    expect(expired.html).toContain('Ce lien de vérification a déjà été utilisé ou a expiré');
    const sent = (await browser.submit(expired, /\/email\/verify\/resend$/, { csrf: csrfOf(expired), email: user.email })) as Page;
    expect(sent.status).toBe(200);
    expect(sent.html).toMatch(/un nouveau lien vient d’y être envoyé/);

    const mail = await smtp.next(user.email);
    expect(mail.subject).toBe('Confirmez votre adresse e-mail');
    expect((await confirm(browser, mail.link)).html).toContain('Adresse e\u2011mail vérifiée');
    const rp = await relyingParty(svc.url, await svc.createClient());
    const { tokens } = await signIn(svc.url, rp, user);
    expect((await userinfo(svc.url, tokens.access_token)).json.email_verified).toBe(true);
  });

  it('answers the same page for an unknown or verified address, sending nothing', async () => {
    const verified = await svc.createUser();
    const browser = new Browser(svc.url);
    const answers: string[] = [];
    for (const email of ['personne@example.org', verified.email]) {
      const expired = (await browser.open('/email/verify?token=x')) as Page;
      const page = (await browser.submit(expired, /\/email\/verify\/resend$/, { csrf: csrfOf(expired), email })) as Page;
      expect(page.status).toBe(200);
      answers.push(page.html.replace(email, 'EMAIL').replace(/name="csrf" value="[^"]+"/, ''));
    }
    expect(answers[0]).toBe(answers[1]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((m) => m.to.includes(verified.email) || m.to.includes('personne@example.org'))).toEqual([]);
  });

  it('is sent from the account page, within the per-address limit', async () => {
    const user = await svc.createUser({ emailVerified: false });
    const browser = new Browser(svc.url);
    const form = (await browser.open('/account')) as Page;
    let page = (await browser.submit(form, /\/account\/login$/, {
      csrf: csrfOf(form),
      email: user.email,
      password: user.password,
    })) as Page;
    expect(page.html).toContain('Votre adresse n’est pas encore vérifiée.');
    for (let i = 0; i < 2; i += 1) {
      page = (await browser.submit(page, /\/account\/verify-email$/, { csrf: csrfOf(page) })) as Page;
      expect(page.html).toContain('Un nouveau lien de vérification vient d’être envoyé à votre adresse.');
      await smtp.next(user.email);
    }
    page = (await browser.submit(page, /\/account\/verify-email$/, { csrf: csrfOf(page) })) as Page;
    expect(page.html).toContain('Trop d’e\u2011mails ont été envoyés à cette adresse. Réessayez dans une heure.');
    const latest = smtp.received.filter((m) => m.to.includes(user.email)).at(-1)!;
    expect((await confirm(browser, latest.link)).html).toContain('Adresse e\u2011mail vérifiée');
    const after = (await browser.open('/account')) as Page;
    expect(isPage(after) && after.html.includes('/account/verify-email')).toBe(false);
  });
});

describe('signin user verify-email --resend', { timeout: 120_000 }, () => {
  let ws: Workspace;
  let cliSmtp: SmtpSink;
  beforeAll(async () => {
    cliSmtp = await startSmtpSink();
    const { from, smtp: server } = cliSmtp.mailConfig();
    ws = workspace({
      extra: [
        'mail:',
        `  from: ${JSON.stringify(from)}`,
        '  smtp:',
        `    host: ${server.host}`,
        `    port: ${server.port}`,
        'rateLimit:',
        '  mailPerAddress: { points: 2, windowSeconds: 3600 }',
      ].join('\n'),
    });
  });
  afterAll(async () => {
    ws?.remove();
    await cliSmtp?.stop();
  });

  it('sends a new link to the address, and refuses past the per-address limit', async () => {
    const signin = (...args: string[]) => cli([...args, '--config', ws.config], { stdin: 'une phrase de passe solide\n' });
    expect((await signin('user', 'create', '--email', 'kofi@example.gh', '--username', 'kofi', '--first-name', 'Kofi')).code).toBe(0);
    for (let i = 0; i < 2; i += 1) {
      const sent = await signin('user', 'verify-email', '--resend', 'kofi@example.gh');
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toContain('sent a new verification link to kofi@example.gh');
      expect((await cliSmtp.next('kofi@example.gh')).link).toMatch(/^http:\/\/localhost:3000\/email\/verify\?token=/);
    }
    const refused = await signin('user', 'verify-email', '--resend', 'kofi@example.gh');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('too many e-mails were sent to kofi@example.gh');
    expect(refused.log).toEqual([expect.objectContaining({ event: 'mail.throttled', source: 'cli' })]);
  });
});

// A new secret is generated only once the owner has confirmed it (the old one stops working at once),
// and both a rotation and a deletion are e-mailed to the owner, over a real SMTP conversation: the
// application's name and client_id, the time, what to do if it was not them, and no link that signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm } from '../support/flow.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../email/smtp-sink.ts';
import { LogCapture } from '../security-log/capture.ts';
import { VALID_APP, csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

const SERVER_APP = { name: 'Facturation nocturne', description: 'Un traitement qui appelle nos API', app_type: 'server' };

let ts: TestService;
let smtp: SmtpSink;
let owner: Owner;
beforeAll(async () => {
  smtp = await startSmtpSink();
  ts = await startTestService({ mail: smtp.mailConfig() });
  owner = await signInToPortal(ts);
});
afterAll(async () => {
  await ts?.stop();
  await smtp?.stop();
});

const csrf = () => csrfOf(owner.home.html);
/** The token endpoint's answer to a server application authenticating with `secret`. */
const tokenWith = (clientId: string, secret: string) =>
  postForm(`${ts.url}/oauth/token`, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });

/** What a notice must never carry: a link with a token, or any address other than these pages. */
function expectNoSignInLink(mail: ReceivedMail) {
  const links = [...mail.text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
  expect(links.sort()).toEqual([`${ts.url}/password/forgot`, `${ts.url}/portal/`]);
  expect(mail.html).not.toMatch(/token=|code=/);
}

describe('portal: a new secret, after a confirmation', () => {
  it('asks first, on a page where the old secret stops at once unless an overlap is chosen; until confirmed, the old secret still works', async () => {
    const app = await registerApp(owner, SERVER_APP);
    const page = await get(owner, `/apps/${app.clientId}`);
    // The application's page links to the confirmation; it holds no form that rotates.
    expect(page.text).toContain(`href="/portal/apps/${app.clientId}/rotate-secret"`);
    expect(page.text).not.toMatch(/<form[^>]*rotate-secret/);

    const confirm = await get(owner, `/apps/${app.clientId}/rotate-secret`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Générer un nouveau secret pour Facturation nocturne');
    expect(confirm.text).toMatch(/<input type="radio" name="overlap" value="none" checked[^>]*> Il cesse de fonctionner tout de suite/);
    expect(confirm.text).toContain('Une fois l’ancien secret arrêté, toute demande qui l’envoie sera refusée');
    expect(confirm.text).toContain('Chaque serveur qui l’utilise devra recevoir le nouveau secret');
    expect(confirm.text).toMatch(/<form method="post" action="\/portal\/apps\/\w+\/rotate-secret"/);
    expect(confirm.text).toContain('name="csrf"');

    // Seeing the page, or posting without the anti-forgery token, changes nothing.
    const forged = await post(owner, `/apps/${app.clientId}/rotate-secret`, {}, null);
    expect(forged.status).toBe(403);
    expect((await tokenWith(app.clientId, app.clientSecret)).status).toBe(200);
    expect(smtp.received.filter((mail) => mail.to.includes(owner.email))).toEqual([]);
  });

  it('rotates once confirmed: the new secret is shown once, the old one is refused, and the owner gets a notice', async () => {
    const app = await registerApp(owner, SERVER_APP);
    const confirm = await get(owner, `/apps/${app.clientId}/rotate-secret`);
    const rotated = await post(owner, `/apps/${app.clientId}/rotate-secret`, {}, csrfOf(confirm.text));
    expect(rotated.status).toBe(303);
    expect(rotated.headers.location).toBe(`/portal/apps/${app.clientId}`);
    const page = await get(owner, `/apps/${app.clientId}`);
    const newSecret = /id="client-secret">(\w{48})</.exec(page.text)![1];
    expect(newSecret).not.toBe(app.clientSecret);

    const old = await tokenWith(app.clientId, app.clientSecret);
    expect(old.status).toBe(401);
    expect(old.json.error).toBe('invalid_client');
    expect((await tokenWith(app.clientId, newSecret)).status).toBe(200);

    const mail = await smtp.next(owner.email);
    expect(mail.subject).toBe('Nouveau secret pour votre application Facturation nocturne');
    expect(mail.text).toContain('Bonjour Aïcha');
    expect(mail.text).toContain('«\u00a0Facturation nocturne\u00a0»');
    expect(mail.text).toContain(`client_id ${app.clientId}`);
    expect(mail.text).toMatch(/le \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC/);
    expect(mail.text).toContain('Si ce n’était pas vous');
    expect(mail.text).not.toContain(newSecret);
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain(app.clientId);
    expectNoSignInLink(mail);
  });
});

describe('portal: deleting an application', () => {
  it('e-mails the owner a notice naming the application', async () => {
    const app = await registerApp(owner);
    const deleted = await post(owner, `/apps/${app.clientId}/delete`, {}, csrf());
    expect(deleted.status).toBe(303);
    const mail = await smtp.next(owner.email);
    expect(mail.subject).toBe(`Votre application ${VALID_APP.name} a été supprimée`);
    expect(mail.text).toContain(`client_id ${app.clientId}`);
    expect(mail.text).toMatch(/\d{4} à \d{2}:\d{2} UTC/);
    expect(mail.text).toContain('Si ce n’était pas vous');
    expectNoSignInLink(mail);
  });

  it('writes to an English-speaking owner in English', async () => {
    const english = await signInToPortal(ts, { 'Accept-Language': 'en' });
    const app = await registerApp(english);
    await post(english, `/apps/${app.clientId}/delete`, {}, csrfOf(english.home.html));
    const mail = await smtp.next(english.email);
    expect(mail.subject).toBe(`Your application ${VALID_APP.name} was deleted`);
    expect(mail.text).toContain('Hello Aïcha');
    expect(mail.text).toMatch(/on \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} UTC/);
    expect(mail.text).toContain('If this was not you');
    expect(mail.html).toContain('<html lang="en">');
  });
});

describe('portal: a mail server that fails', () => {
  it('neither fails nor undoes the rotation or the deletion, and is logged without the address', async () => {
    // A port nobody listens on: the SMTP connection is refused.
    const closed = await startSmtpSink();
    await closed.stop();
    const log = new LogCapture();
    const broken = await startTestService(
      { mail: closed.mailConfig(), log: { level: 'info', pretty: false } },
      { logDestination: log.destination },
    );
    try {
      const someone = await signInToPortal(broken);
      const app = await registerApp(someone, SERVER_APP);
      const rotated = await post(someone, `/apps/${app.clientId}/rotate-secret`, {}, csrfOf(someone.home.html));
      expect(rotated.status).toBe(303);
      expect((await get(someone, `/apps/${app.clientId}`)).text).toMatch(/id="client-secret">\w{48}</);
      const deleted = await post(someone, `/apps/${app.clientId}/delete`, {}, csrfOf(someone.home.html));
      expect(deleted.status).toBe(303);
      expect(await broken.service.context.clients.get(app.clientId)).toBeUndefined();
      // Sent without holding the answer: the failures arrive a moment later.
      await expect.poll(() => log.find('mail.failed').length, { timeout: 15_000 }).toBe(2);
      expect(log.find('mail.failed')[0]).toMatchObject({ reason: expect.stringMatching(/ECONNREFUSED|ESOCKET|ECONNECTION/) });
      expect(log.text.join('')).not.toContain(someone.email);
    } finally {
      await broken.stop();
    }
  });
});

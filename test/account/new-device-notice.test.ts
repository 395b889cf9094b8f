// The notice of a sign-in from a new device: with `notices.newDeviceSignIn: true`, a sign-in from a
// device (browser and system) the account had never signed in from is told to the account's address,
// from the account page's own form and from an application's login page alike; the account's first
// device, and a device seen before, are not. Off by default: nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { accountSignIn, appSignIn, CHROME_ANDROID, device, FIREFOX_WINDOWS, SAFARI_IPHONE } from './session-cookies.ts';

let smtp: SmtpSink;
let on: TestService;
let off: TestService;
beforeAll(async () => {
  smtp = await startSmtpSink();
  on = await startTestService({ mail: smtp.mailConfig(), notices: { newDeviceSignIn: true } });
  off = await startTestService({ mail: smtp.mailConfig() });
});
afterAll(async () => {
  await on?.stop();
  await off?.stop();
  await smtp?.stop();
});

const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

describe('the new-device notice', () => {
  it('is sent for a device the account never signed in from, and only then', async () => {
    const user = await on.createUser();
    // The first device is learnt silently; the same device again is not new.
    await accountSignIn(device(on.url, CHROME_ANDROID), user, false);
    await accountSignIn(device(on.url, CHROME_ANDROID), user, true);

    await accountSignIn(device(on.url, FIREFOX_WINDOWS), user, false);
    const mail = await smtp.next(user.email);
    expect(mail.subject).toBe('Nouvelle connexion à votre compte');
    expect(mail.text).toContain('Bonjour Aïcha,');
    expect(mail.text).toMatch(/jamais utilisé\u00a0: Firefox sur Windows, le \d{1,2} \S+ \d{4} à \d{2}:\d{2} \(heure UTC\)/);
    expect(mail.text).toContain(`${on.url}/account?task=sessions`);
    expect(mail.text).toContain(`${on.url}/password/forgot`);
    expect(mail.text).not.toMatch(/token=/);
    expect(mail.html).toContain('Firefox sur Windows');

    // Through an application's login page: the engine's sign-in is noticed the same way.
    const rp = await relyingParty(on.url, await on.createClient());
    const arrival = await appSignIn(device(on.url, SAFARI_IPHONE), (await rp.start()).url, user, false);
    expect(arrival.end).toBeInstanceOf(URL);
    const second = await smtp.next(user.email);
    expect(second.text).toContain('Safari sur iPhone');
    // Firefox on Windows is known now.
    await accountSignIn(device(on.url, FIREFOX_WINDOWS), user, false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(user.email)).toHaveLength(2);
  });

  it('is off by default', async () => {
    const user = await off.createUser();
    await accountSignIn(device(off.url, CHROME_ANDROID), user, false);
    await accountSignIn(device(off.url, FIREFOX_WINDOWS), user, false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(user.email)).toEqual([]);
  });
});

// Each gateway sends exactly the request its provider documents, to a local fake that speaks the protocol:
// Orange (client-credentials token in HTTP Basic, then the OneAPI outbound SMS request on the URL-encoded
// sender address), the WhatsApp Cloud API (a template message with a bearer token) and the webhook. A
// gateway that fails is a GatewayError, which the pages turn into a page and a log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/phone/gateways/gateway.ts';
import { OrangeSmsGateway } from '../../src/phone/gateways/orange.ts';
import { WebhookGateway } from '../../src/phone/gateways/webhook.ts';
import { WhatsAppGateway } from '../../src/phone/gateways/whatsapp.ts';
import { Browser, isPage } from '../support/browser.ts';
import { relyingParty } from '../support/relying-party.ts';
import { ORANGE, startFakeGateways, WEBHOOK_TOKEN, WHATSAPP, type FakeGateways } from './fake-gateways.ts';
import { startPhoneService, type PhoneTestService } from './phone-service.ts';

const MESSAGE = { to: '+2250707123456', code: '123456', text: 'Code 123456\n\n@id.example.org #123456', locale: 'fr' as const };

let fake: FakeGateways;
beforeAll(async () => {
  fake = await startFakeGateways();
});
afterAll(() => fake.stop());

describe('the gateways, against fakes of their APIs', () => {
  it('Orange: a client-credentials token, then the outbound SMS request, the token kept for the next one', async () => {
    fake.received.length = 0;
    const orange = new OrangeSmsGateway({
      tokenUrl: `${fake.url}/oauth/v3/token`,
      apiUrl: fake.url,
      clientId: ORANGE.clientId,
      clientSecret: ORANGE.clientSecret,
      senderAddress: 'tel:+2250000',
      senderName: 'Mairie',
    });
    await orange.send(MESSAGE);
    await orange.send(MESSAGE);
    const [token, sms, again] = fake.received;
    expect(fake.received).toHaveLength(3);
    expect(token.method).toBe('POST');
    expect(token.path).toBe('/oauth/v3/token');
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from(`${ORANGE.clientId}:${ORANGE.clientSecret}`).toString('base64')}`);
    expect(token.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(token.body).toBe('grant_type=client_credentials');
    expect(sms.method).toBe('POST');
    expect(sms.path).toBe('/smsmessaging/v1/outbound/tel%3A%2B2250000/requests');
    expect(sms.headers.authorization).toBe(`Bearer ${ORANGE.token}`);
    expect(sms.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sms.body)).toEqual({
      outboundSMSMessageRequest: {
        address: 'tel:+2250707123456',
        senderAddress: 'tel:+2250000',
        senderName: 'Mairie',
        outboundSMSTextMessage: { message: MESSAGE.text },
      },
    });
    expect(again.path).toBe(sms.path);
  });

  it('WhatsApp Cloud API: the authentication template, code in its body and its copy-code button', async () => {
    fake.received.length = 0;
    await new WhatsAppGateway({
      apiUrl: fake.url,
      apiVersion: 'v21.0',
      phoneNumberId: WHATSAPP.phoneNumberId,
      accessToken: WHATSAPP.accessToken,
      template: WHATSAPP.template,
    }).send(MESSAGE);
    const [request] = fake.received;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/v21.0/${WHATSAPP.phoneNumberId}/messages`);
    expect(request.headers.authorization).toBe(`Bearer ${WHATSAPP.accessToken}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '2250707123456',
      type: 'template',
      template: {
        name: WHATSAPP.template,
        language: { code: 'fr' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '123456' }] },
        ],
      },
    });
  });

  it('webhook: the message as JSON with its bearer token', async () => {
    fake.received.length = 0;
    await new WebhookGateway({ url: `${fake.url}/hook`, bearerToken: WEBHOOK_TOKEN, channel: 'sms' }).send(MESSAGE);
    const [request] = fake.received;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hook');
    expect(request.headers.authorization).toBe(`Bearer ${WEBHOOK_TOKEN}`);
    expect(JSON.parse(request.body)).toEqual({ ...MESSAGE, channel: 'sms' });
  });

  it('a provider that fails, or cannot be reached, is a GatewayError', async () => {
    fake.failWith = 500;
    try {
      await expect(new WebhookGateway({ url: `${fake.url}/hook`, channel: 'sms' }).send(MESSAGE)).rejects.toMatchObject({
        reason: 'refused',
        status: 500,
      });
    } finally {
      fake.failWith = undefined;
    }
    await expect(new WebhookGateway({ url: 'http://127.0.0.1:1/hook', channel: 'sms' }).send(MESSAGE)).rejects.toBeInstanceOf(GatewayError);
  });
});

describe('the gateways behind the sign-in pages', { timeout: 60_000 }, () => {
  it('Orange: the code of the page leaves by the outbound SMS request, and signs in with amr sms', async () => {
    const t = await startPhoneService('embedded', {
      gateway: 'orange',
      orange: {
        tokenUrl: `${fake.url}/oauth/v3/token`,
        apiUrl: fake.url,
        clientId: ORANGE.clientId,
        clientSecret: ORANGE.clientSecret,
        senderAddress: 'tel:+2250000',
      },
    });
    try {
      fake.received.length = 0;
      const { claims } = await signInByCode(t, fake, 'Recevoir un code par SMS');
      expect(claims.amr).toEqual(['sms']);
      const sms = fake.received.find((r) => r.path.startsWith('/smsmessaging/'))!;
      expect(JSON.parse(sms.body).outboundSMSMessageRequest.address).toBe('tel:+2250707445566');
    } finally {
      await t.stop();
    }
  });

  it('WhatsApp: the login page says WhatsApp, the template carries the code, and the sign-in says amr otp', async () => {
    const t = await startPhoneService('embedded', {
      gateway: 'whatsapp',
      whatsapp: { apiUrl: fake.url, phoneNumberId: WHATSAPP.phoneNumberId, accessToken: WHATSAPP.accessToken, template: WHATSAPP.template },
    });
    try {
      fake.received.length = 0;
      const { claims } = await signInByCode(t, fake, 'Recevoir un code par WhatsApp');
      expect(claims.amr).toEqual(['otp']);
      const message = fake.received.find((r) => r.path.endsWith('/messages'))!;
      expect(message.path).toBe(`/v21.0/${WHATSAPP.phoneNumberId}/messages`);
      expect(JSON.parse(message.body).to).toBe('2250707445566');
    } finally {
      await t.stop();
    }
  });
});

/** A user with a number signs in with the code `gateways` received, from the link named `linkText`. */
async function signInByCode(t: PhoneTestService, gateways: FakeGateways, linkText: string) {
  const user = await t.svc.createUser();
  await t.svc.service.storage.db.query(`UPDATE accounts SET phone_number = '+2250707445566', phone_verified_at = now() WHERE id = $1`, [
    user.id,
  ]);
  const rp = await relyingParty(t.svc.url, await t.svc.createClient());
  const start = await rp.start();
  const browser = new Browser(t.svc.url);
  const login = await browser.open(start.url);
  if (!isPage(login)) throw new Error('expected the login page');
  expect(login.html).toContain(linkText);
  const form = await browser.open(login.html.match(/href="([^"]*\/phone)"/)![1]);
  if (!isPage(form)) throw new Error('expected the number page');
  const codePage = await browser.submit(form, /\/phone$/, { country: '+225', number: '07 07 44 55 66' });
  if (!isPage(codePage)) throw new Error('expected the code page');
  const consent = await browser.submit(codePage, /\/phone\/code$/, { code: gateways.codes().at(-1)! });
  if (!isPage(consent)) throw new Error('expected the consent page');
  const back = await browser.submit(consent, /\/consent$/, { scope: ['openid', 'email', 'profile'] });
  const tokens = await rp.redeem(back as URL, start);
  return { claims: tokens.claims()! };
}

// Each gateway sends exactly the request its provider documents, to a local fake that speaks the protocol:
// Orange (client-credentials token in HTTP Basic, then the OneAPI outbound SMS request on the URL-encoded
// sender address), the WhatsApp Cloud API (a template message with a bearer token) and the webhook. A
// gateway that fails is a GatewayError, which the pages turn into a page and a log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/phone/gateways/gateway.ts';
import { OrangeSmsGateway } from '../../src/phone/gateways/orange.ts';
import { WebhookGateway } from '../../src/phone/gateways/webhook.ts';
import { WhatsAppGateway } from '../../src/phone/gateways/whatsapp.ts';
import { ORANGE, startFakeGateways, WEBHOOK_TOKEN, WHATSAPP, type FakeGateways } from './fake-gateways.ts';

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

// Any other provider, behind a webhook the deployment runs: POST {url} with a JSON body
// `{ "to": "+2250707123456", "text": "...", "code": "123456", "locale": "fr", "channel": "sms" }`, and
// `Authorization: Bearer <token>` when one is configured. Any 2xx answer is a message handed over.
import type { PhoneConfig } from '../../config/phone-schema.ts';
import { gatewayFetch, type CodeGateway, type CodeMessage } from './gateway.ts';

type WebhookConfig = NonNullable<PhoneConfig['webhook']>;

export class WebhookGateway implements CodeGateway {
  readonly name = 'webhook';

  constructor(private readonly config: WebhookConfig) {}

  get channel() {
    return this.config.channel;
  }

  async send(message: CodeMessage): Promise<void> {
    const { url, bearerToken, channel } = this.config;
    await gatewayFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearerToken ? { authorization: `Bearer ${bearerToken}` } : {}) },
      body: JSON.stringify({ to: message.to, text: message.text, code: message.code, locale: message.locale, channel }),
    });
  }
}

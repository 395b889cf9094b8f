// The WhatsApp Business Cloud API: POST {apiUrl}/{version}/{phone-number-id}/messages with a bearer token,
// a template message of the approved authentication template. Its body text takes the code as its one
// parameter, and its copy-code button (a URL button, index 0, once the template is created) takes it too.
// The language is the page's; the template must exist in it (`fr`, `en`).
import type { PhoneConfig } from '../../config/phone-schema.ts';
import { gatewayFetch, type CodeGateway, type CodeMessage } from './gateway.ts';

type WhatsAppConfig = NonNullable<PhoneConfig['whatsapp']>;

export class WhatsAppGateway implements CodeGateway {
  readonly channel = 'whatsapp' as const;
  readonly name = 'whatsapp';

  constructor(private readonly config: WhatsAppConfig) {}

  async send(message: CodeMessage): Promise<void> {
    const { apiUrl, apiVersion, phoneNumberId, accessToken, template } = this.config;
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      // The Cloud API takes the number in international form, digits only.
      to: message.to.replace(/^\+/, ''),
      type: 'template',
      template: {
        name: template,
        language: { code: message.locale },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: message.code }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: message.code }] },
        ],
      },
    };
    await gatewayFetch(`${apiUrl.replace(/\/$/, '')}/${apiVersion}/${phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }
}

// The gateway the config names (phone.gateway), built from its own section.
import type { PhoneConfig } from '../../config/phone-schema.ts';
import type { CodeGateway } from './gateway.ts';
import { OrangeSmsGateway } from './orange.ts';
import { WebhookGateway } from './webhook.ts';
import { WhatsAppGateway } from './whatsapp.ts';

export function createGateway(config: PhoneConfig): CodeGateway | undefined {
  switch (config.gateway) {
    case 'orange':
      return config.orange && new OrangeSmsGateway(config.orange);
    case 'whatsapp':
      return config.whatsapp && new WhatsAppGateway(config.whatsapp);
    case 'webhook':
      return config.webhook && new WebhookGateway(config.webhook);
    default:
      return undefined;
  }
}

/** What the pages say the code comes by, from the config alone. */
export function configuredChannel(config: PhoneConfig): 'sms' | 'whatsapp' {
  if (config.gateway === 'whatsapp') return 'whatsapp';
  if (config.gateway === 'webhook') return config.webhook?.channel ?? 'sms';
  return 'sms';
}

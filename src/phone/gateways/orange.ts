// The Orange SMS API (developer.orange.com, "SMS Africa"): a token from Orange's OAuth 2 endpoint with the
// client-credentials grant (client id and secret in HTTP Basic), then one outbound request per message:
// POST {apiUrl}/smsmessaging/v1/outbound/{senderAddress}/requests, the sender address URL-encoded
// (`tel%3A%2B2250000`), with the GSMA OneAPI body `outboundSMSMessageRequest`. The token lasts about an
// hour; it is kept until shortly before it ends, and asked again once if Orange refuses it earlier.
import type { PhoneConfig } from '../../config/phone-schema.ts';
import { gatewayFetch, GatewayError, type CodeGateway, type CodeMessage } from './gateway.ts';

type OrangeConfig = NonNullable<PhoneConfig['orange']>;

export class OrangeSmsGateway implements CodeGateway {
  readonly channel = 'sms' as const;
  readonly name = 'orange';
  private token: { value: string; until: number } | undefined;

  constructor(private readonly config: OrangeConfig) {}

  async send(message: CodeMessage): Promise<void> {
    try {
      await this.post(message, await this.accessToken());
    } catch (error) {
      if (!(error instanceof GatewayError) || error.reason !== 'auth') throw error;
      this.token = undefined;
      await this.post(message, await this.accessToken());
    }
  }

  private async post(message: CodeMessage, token: string): Promise<void> {
    const { apiUrl, senderAddress, senderName } = this.config;
    const url = `${apiUrl.replace(/\/$/, '')}/smsmessaging/v1/outbound/${encodeURIComponent(senderAddress)}/requests`;
    const body = {
      outboundSMSMessageRequest: {
        address: `tel:${message.to}`,
        senderAddress,
        ...(senderName ? { senderName } : {}),
        outboundSMSTextMessage: { message: message.text },
      },
    };
    await gatewayFetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const { clientId, clientSecret, tokenUrl } = this.config;
    // RFC 6749 §2.3.1: the id and secret form-encoded before they are joined, then base64.
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    const res = await gatewayFetch(tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'grant_type=client_credentials',
    });
    const json = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
    if (typeof json.access_token !== 'string') throw new GatewayError('auth', res.status);
    const seconds = typeof json.expires_in === 'number' ? json.expires_in : Number(json.expires_in) || 3600;
    // A minute early: a token about to end is not used for a request that could outlive it.
    this.token = { value: json.access_token, until: Date.now() + Math.max(0, seconds - 60) * 1000 };
    return this.token.value;
  }
}

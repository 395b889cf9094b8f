// One local HTTP server that speaks, on its paths, each protocol phone sign-in talks to: Orange's OAuth 2
// token endpoint and its outbound SMS resource, the WhatsApp Cloud API's messages edge, a webhook, and a
// CAMARA SIM Swap `check`. It records every request as it came (method, path, headers, body), so the
// tests compare them with what each API documents, and it can be told to fail.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeGateways {
  url: string;
  received: Received[];
  /** The codes sent so far (any gateway), newest last. */
  codes(): string[];
  /** The SIM-swap check's next answers. */
  simSwapped: boolean;
  /** Every request but the SIM-swap check answers this status while set. */
  failWith: number | undefined;
  stop(): Promise<void>;
}

export const ORANGE = { clientId: 'orange-client', clientSecret: 'orange-secret-value', token: 'orange-access-token-1' };
export const WHATSAPP = { phoneNumberId: '106540352242922', accessToken: 'EAAG-whatsapp-token', template: 'code_connexion' };
export const WEBHOOK_TOKEN = 'webhook-bearer-token-0123456789';

export async function startFakeGateways(): Promise<FakeGateways> {
  const received: Received[] = [];
  const fake: FakeGateways = {
    url: '',
    received,
    simSwapped: false,
    failWith: undefined,
    codes: () =>
      received
        .filter((r) => r.method === 'POST' && !r.path.endsWith('/check') && !r.path.endsWith('/token'))
        .map((r) => /#(\d{6})"|"text":"(\d{6})"|"code":"(\d{6})"/.exec(r.body)?.slice(1).find(Boolean) ?? ''),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      received.push({ method: req.method ?? '', path, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (path.endsWith('/check')) return json(200, { swapped: fake.simSwapped });
      if (fake.failWith) return json(fake.failWith, { error: 'unavailable' });
      if (path === '/oauth/v3/token') return json(200, { token_type: 'Bearer', access_token: ORANGE.token, expires_in: 3600 });
      if (path.startsWith('/smsmessaging/v1/outbound/'))
        return json(201, { outboundSMSMessageRequest: JSON.parse(body).outboundSMSMessageRequest });
      if (path.endsWith('/messages')) return json(200, { messaging_product: 'whatsapp', messages: [{ id: 'wamid.1' }] });
      if (path === '/hook') return json(200, {});
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

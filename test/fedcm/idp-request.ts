// Requests from the test (the application's server) to the service on https://idp.test:<port>: to 127.0.0.1
// with the service's host name for TLS and Host, trusting the test's own certificate.
import { request } from 'node:https';
import type { FedcmWorld } from './fedcm-service.ts';

export interface IdpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown>;
}

export function idpRequest(
  world: Pick<FedcmWorld, 'issuer' | 'certificate'>,
  path: string,
  options: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<IdpAnswer> {
  const url = new URL(path, world.issuer);
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? (body ? 'POST' : 'GET'),
        servername: url.hostname,
        ca: world.certificate.cert,
        headers: {
          Host: url.host,
          ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(Buffer.byteLength(body)) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON: a page
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The application's server redeems a code with its verifier, then reads userinfo; the answers as given. */
export async function redeem(world: FedcmWorld, code: string, verifier: string, client = world.client) {
  const token = await idpRequest(world, '/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    },
  });
  if (token.status !== 200) return { token, userinfo: undefined };
  const userinfo = await idpRequest(world, '/oauth/userinfo', { headers: { Authorization: `Bearer ${String(token.json.access_token)}` } });
  return { token, userinfo };
}

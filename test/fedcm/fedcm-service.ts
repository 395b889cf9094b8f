// The service on https://idp.test:<port> and an application page on https://rp.test:<port>, for the FedCM tests.
import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:https';
import { parseConfig } from '../../src/config/load.ts';
import type { SignInConfigInput } from '../../src/config/schema.ts';
import type { Database } from '../../adapters/sql/database.ts';
import { createSignInService, type SignInService, type SignInServiceOptions } from '../../src/service.ts';
import { closeServer, httpsServer, selfSignedCertificate, type Certificate } from './tls-hosts.ts';

export interface FedcmWorld {
  issuer: string;
  rpOrigin: string;
  service: SignInService;
  certificate: Certificate;
  /** Each request the application's server received (its redirect URI's callbacks). */
  rpRequests: URL[];
  /** Each request the service answered: method, path, status, Sec-Fetch-Dest (what the browser asked). */
  idpRequests: string[];
  user: { id: string; email: string; password: string };
  client: { clientId: string; clientSecret: string; redirectUri: string };
  stop(): Promise<void>;
}

const secret = () => randomBytes(32).toString('base64url');

export async function startFedcmWorld(overrides: Partial<SignInConfigInput> = {}, options: SignInServiceOptions = {}): Promise<FedcmWorld> {
  const certificate = selfSignedCertificate();
  const idp = await httpsServer(certificate);
  const rp = await httpsServer(certificate);
  const issuer = `https://idp.test:${idp.port}`;
  const rpOrigin = `https://rp.test:${rp.port}`;
  const config = parseConfig({
    issuer,
    secrets: { cookieKeys: [secret()], pairwiseSalt: secret() },
    storage: { kind: 'embedded', dataDir: 'memory://' },
    keys: { algorithms: ['RS256'] },
    log: { level: 'silent' },
    ...overrides,
  });
  const service = await createSignInService(config, { sweepIntervalSeconds: 0, ...options });
  idp.server.on('request', service.app.callback());
  const idpRequests: string[] = [];
  idp.server.on('request', (req, res) =>
    res.on('finish', () =>
      idpRequests.push(
        `${req.method} ${req.url} ${res.statusCode} ${req.headers['sec-fetch-dest'] ?? ''} cookie=${req.headers.cookie ? 'yes' : 'no'}`,
      ),
    ),
  );
  const rpRequests: URL[] = [];
  rp.server.on('request', (req, res) => {
    rpRequests.push(new URL(req.url ?? '/', rpOrigin));
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="fr"><title>Application</title><h1>Application</h1><button id="signin">Se connecter</button></html>',
    );
  });
  const password = 'correct horse battery staple';
  const email = `awa.${Date.now()}@example.org`;
  const account = await service.context.accounts.create({
    email,
    password,
    username: `awa${Date.now()}`,
    firstName: 'Awa',
    emailVerified: true,
  });
  const { client, clientSecret } = await service.context.clients.create({
    name: 'Application de test',
    description: 'Une application qui sert aux essais',
    appType: 'web',
    redirectUris: [`${rpOrigin}/cb`],
    scopes: ['openid', 'email', 'profile'],
  });
  return {
    issuer,
    rpOrigin,
    service,
    certificate,
    rpRequests,
    idpRequests,
    user: { id: account.id, email, password },
    client: { clientId: client.clientId, clientSecret, redirectUri: client.redirectUris[0]! },
    async stop() {
      await closeServer(rp.server);
      await closeServer(idp.server);
      await service.close();
    },
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export type { Database, Server };

// Starts the real service on a loopback port for a test file, with an in-memory embedded store by
// default, and gives the tests a user and an application to work with.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../src/config/load.ts';
import type { SignInConfig, SignInConfigInput } from '../../src/config/schema.ts';
import { createSignInService, type SignInService, type SignInServiceOptions } from '../../src/service.ts';
import type { ClientInput } from '../../src/clients/validate.ts';

export interface TestService {
  url: string;
  config: SignInConfig;
  service: SignInService;
  server: Server;
  createUser(overrides?: Partial<TestUser>): Promise<TestUser & { id: string }>;
  createClient(overrides?: Partial<ClientInput>): Promise<TestClient>;
  stop(): Promise<void>;
}

export interface TestUser {
  email: string;
  password: string;
  username: string;
  firstName: string;
  emailVerified: boolean;
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string[];
}

const secret = () => randomBytes(32).toString('base64url');
let counter = 0;

export async function startTestService(
  overrides: Partial<SignInConfigInput> = {},
  options: SignInServiceOptions = {},
  /** The host name of the service's URL: `localhost` for a browser that needs a secure context (passkeys). */
  { host = '127.0.0.1' }: { host?: string } = {},
): Promise<TestService> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  const config = parseConfig({
    issuer: url,
    secrets: { cookieKeys: [secret()], pairwiseSalt: secret() },
    storage: { kind: 'embedded', dataDir: 'memory://' },
    keys: { algorithms: ['RS256'] },
    // Quiet unless a test asks for the log (test/security-log passes a level and a destination).
    log: { level: 'silent' },
    ...overrides,
  });
  const service = await createSignInService(config, { sweepIntervalSeconds: 0, ...options });
  server.on('request', service.app.callback());

  return {
    url,
    config,
    service,
    server,
    async createUser(user = {}) {
      counter += 1;
      const full: TestUser = {
        email: `user${counter}.${Date.now()}@example.org`,
        password: 'correct horse battery staple',
        username: `user${counter}_${Date.now()}`,
        firstName: 'Aïcha',
        emailVerified: true,
        ...user,
      };
      const account = await service.context.accounts.create(full);
      return { ...full, id: account.id };
    },
    async createClient(input = {}) {
      const redirectUri = input.redirectUris?.[0] ?? 'https://app.example.org/callback';
      const { client, clientSecret } = await service.context.clients.create({
        name: 'Application de test',
        description: 'Une application qui sert aux essais',
        appType: 'web',
        redirectUris: [redirectUri],
        scopes: ['openid', 'email', 'profile'],
        ...input,
      });
      return { clientId: client.clientId, clientSecret, redirectUri: client.redirectUris[0], scopes: client.scopes };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
    },
  };
}

// The portal's integration help shows web and single-page applications the FedCM snippet with their own
// values (client_id, first redirect URI, scopes, the service's script); mobile apps keep the Custom Tab
// sheet, and an http issuer (where browsers offer no FedCM) shows no such section.
import { describe, expect, it } from 'vitest';
import type { RegisteredClient } from '../../src/clients/registry.ts';
import { integrationHelp } from '../../src/portal/integration.ts';

const client = (appType: RegisteredClient['appType'], redirectUri: string): RegisteredClient => ({
  clientId: 'c1ient1d',
  secretHash: 'x',
  name: 'Boutique',
  description: 'Une boutique',
  appType,
  redirectUris: [redirectUri],
  scopes: ['openid', 'email'],
  ownerId: null,
  firstParty: false,
  logoUri: null,
  policyUri: null,
  tosUri: null,
  verifiedAt: null,
  fedcmOrigins: [],
  createdAt: new Date(),
  updatedAt: new Date(),
});

const fedcmBlock = (issuer: string, app: RegisteredClient) =>
  integrationHelp(issuer, app).sections.find((section) => section.id === 'help-section-fedcm')?.blocks[0]?.code;

describe('the FedCM snippet of the integration help', () => {
  it('fills in the application’s own values, for a web application and a single-page one', () => {
    for (const appType of ['web', 'spa'] as const) {
      const code = fedcmBlock('https://login.example.org', client(appType, 'https://boutique.example/callback'));
      expect(code).toContain('<script src="https://login.example.org/fedcm/client.js"></script>');
      expect(code).toContain("clientId: 'c1ient1d'");
      expect(code).toContain("redirectUri: 'https://boutique.example/callback'");
      expect(code).toContain("scope: 'openid email'");
      expect(code).toContain('SignIn.start');
    }
    expect(fedcmBlock('https://login.example.org', client('spa', 'https://boutique.example/cb'))).toContain('no secret');
  });

  it('is not offered to a mobile app, nor by an http issuer', () => {
    expect(fedcmBlock('https://login.example.org', client('mobile', 'com.boutique.app:/cb'))).toBeUndefined();
    expect(fedcmBlock('http://localhost:3000', client('web', 'https://boutique.example/callback'))).toBeUndefined();
  });
});

// Public clients (mobile apps and single-page apps) are registered with `token_endpoint_auth_method:
// none`: PKCE alone protects their codes (src/provider/client-metadata.ts). They were still given a
// client secret at registration, because the interface hands one to every application, and an app
// built from the portal's curl examples sends it. The engine would refuse that request: a client
// registered with `none` that presents a secret uses "another authentication method".
//
// So for a public client that presents a secret, and only then, the engine is told the client
// authenticates with that secret: the secret is then compared against its hash like any other
// (engine/client-secrets.ts, behind the client-authentication limits), so a wrong secret is still a 401.
// Without a secret the registered `none` stands. Confidential clients are untouched.
//
// Relies on oidc-provider 9.13:
// - lib/models/client.js: the getter `Client.prototype.clientAuthMethod`, which returns the registered
//   `tokenEndpointAuthMethod` and is what lib/shared/client_auth.js matches the presented mechanism
//   against (`methods.includes(ctx.oidc.client.clientAuthMethod)`), then switches on;
// - lib/shared/client_auth.js: a secret in the body (`ctx.oidc.params.client_secret`) or an HTTP Basic
//   `Authorization` header makes the presented methods `client_secret_basic`/`client_secret_post`;
// - lib/provider.js: the static `Provider.ctx`, the Koa context of the request being handled.
import Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';

/** What the engine is told a public client presenting its secret authenticates with. */
export const PUBLIC_CLIENT_WITH_SECRET = 'client_secret_post';

export function acceptSecretsOfPublicClients(provider: Provider): void {
  const prototype = provider.Client.prototype;
  const registered = Object.getOwnPropertyDescriptor(prototype, 'clientAuthMethod')?.get;
  if (!registered) throw new Error('oidc-provider: Client.prototype.clientAuthMethod is no longer a getter (see engine/public-clients.ts)');
  Object.defineProperty(prototype, 'clientAuthMethod', {
    configurable: true,
    get: function publicClientAuthMethod(this: Client): string {
      const method = registered.call(this) as string;
      return method === 'none' && presentsSecret() ? PUBLIC_CLIENT_WITH_SECRET : method;
    },
  });
}

/** Whether the request being handled carries a client secret, in the body or in HTTP Basic. */
function presentsSecret(): boolean {
  const ctx = Provider.ctx;
  if (!ctx) return false;
  const params = ctx.oidc?.params as Record<string, unknown> | undefined;
  if (typeof params?.client_secret === 'string' && params.client_secret) return true;
  return /^basic\s/i.test(ctx.get('authorization'));
}

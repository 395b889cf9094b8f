// Who the service is to an authenticator. The relying-party id is a host name (no scheme, port or path):
// the issuer's host unless configured, so that a service mounted under a path (https://example.org/auth)
// shares it with its host, as WebAuthn wants. The expected origins are the issuer's unless configured, for
// a deployment whose pages live on another host. Every origin must be the relying-party id or a host below
// it, or browsers refuse the ceremony: checked once, at start.
import type { SignInConfig } from '../config/schema.ts';

export interface RelyingParty {
  id: string;
  /** The name an authenticator may show beside the passkey. */
  name: string;
  origins: string[];
  /** How long a challenge lives and the browser waits, in seconds. */
  timeoutSeconds: number;
}

export function relyingParty(config: Pick<SignInConfig, 'issuer' | 'passkeys' | 'branding'>): RelyingParty {
  const issuer = new URL(config.issuer);
  const id = (config.passkeys.rpId ?? issuer.hostname).toLowerCase();
  const origins = config.passkeys.origins ?? [issuer.origin];
  for (const origin of origins) {
    const host = new URL(origin).hostname.toLowerCase();
    if (host !== id && !host.endsWith(`.${id}`))
      throw new Error(`passkeys: the origin ${origin} is not on the relying-party id ${id} or a host below it`);
  }
  return { id, name: config.branding.serviceName || issuer.hostname, origins, timeoutSeconds: config.passkeys.timeoutSeconds };
}

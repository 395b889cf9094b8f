// What the consent screen tells the user about who is asking: anyone with an account can register an
// application under any name, so a name alone proves nothing. An operator's verification (`signin
// client verify`) is what the screen relies on: a verified application shows its logo and its owner's
// e-mail domain; any other is shown as "application non vérifiée". Its privacy policy and terms of
// service are linked when the owner gave them (https URLs checked at registration).
import type { AccountStore } from '../src/accounts/store.ts';
import type { RegisteredClient } from '../src/clients/registry.ts';
import { CONTENT_SECURITY_POLICY } from '../src/pages/security-headers.ts';

export interface ConsentTrust {
  verified: boolean;
  /** The domain of the owner's e-mail address, for a verified application that has an owner. */
  ownerDomain: string | null;
  /**
   * Shown only once verified: before that, an application could borrow another's logo. The browser
   * loads it from the owner's server (never fetched by the service), without a referrer.
   */
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
}

export async function trustOf(client: RegisteredClient, accounts: Pick<AccountStore, 'findById'>): Promise<ConsentTrust> {
  const verified = client.verifiedAt !== null;
  const owner = verified && client.ownerId ? await accounts.findById(client.ownerId) : undefined;
  return {
    verified,
    ownerDomain: owner ? owner.email.slice(owner.email.lastIndexOf('@') + 1).toLowerCase() : null,
    logoUri: verified ? client.logoUri : null,
    policyUri: client.policyUri,
    tosUri: client.tosUri,
  };
}

/** The pages' policy, with the verified logo's exact URL as the one image source from elsewhere. */
export function consentPolicy(trust: Pick<ConsentTrust, 'logoUri'>): string | undefined {
  if (!trust.logoUri) return undefined;
  // The URL was checked at registration to hold nothing that ends a source (client-links.ts).
  return CONTENT_SECURITY_POLICY.replace("img-src 'self' data:", `img-src 'self' data: ${trust.logoUri}`);
}

// The engine has no setting for hashed client secrets; it compares `client_secret` as stored. We keep
// the hash there and replace the comparison (awaited by the engine). This is the only module that
// reaches into the engine's classes.
import type Provider from 'oidc-provider';
import { verifyClientSecret } from '../clients/credentials.ts';

export function useHashedClientSecrets(provider: Provider): void {
  const Client = provider.Client as unknown as { prototype: { clientSecret?: string; compareClientSecret(actual: string): boolean | Promise<boolean> } };
  Client.prototype.compareClientSecret = function compareHashed(this: { clientSecret?: string }, actual: string) {
    return verifyClientSecret(this.clientSecret ?? '', actual);
  };
}

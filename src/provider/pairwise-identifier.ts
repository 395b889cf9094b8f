// The engine's pairwiseIdentifier hook: the `sub` an application sees for an account (the engine's
// default throws). Per-client HMAC, see policy/pairwise.ts.
import type { Client } from 'oidc-provider';
import { pairwiseSubjects } from '../policy/pairwise.ts';

export function makePairwiseIdentifier(salt: string) {
  const subject = pairwiseSubjects(salt);
  return function pairwiseIdentifier(_ctx: unknown, accountId: string, client: Pick<Client, 'clientId'>): string {
    return subject(client.clientId, accountId);
  };
}

// What the faces are given for passkeys: the relying party, the challenges, the stored passkeys, the
// pending sign-ins that wait for an answer to the offer, and whether passkeys are on at all.
import type { ModelAdapter } from '../../adapters/adapter.ts';
import type { Queryable } from '../../adapters/sql/database.ts';
import type { SignInConfig } from '../config/schema.ts';
import { PASSKEY_CHALLENGE_MODEL, PasskeyChallenges } from './challenges.ts';
import type { CeremonyDeps } from './ceremony.ts';
import { relyingParty } from './relying-party.ts';
import { PasskeyStore } from './store.ts';

/** The password sign-in that waits while the offer to create a passkey is shown: model `PasskeyOffer`. */
export const PASSKEY_OFFER_MODEL = 'PasskeyOffer';
/** How long the offer waits for an answer before the interaction has to be signed in again. */
export const OFFER_SECONDS = 10 * 60;

export interface PendingSignIn {
  accountId: string;
  remember: boolean;
}

export interface Passkeys extends CeremonyDeps {
  enabled: boolean;
  passkeys: PasskeyStore;
  offers: Pick<ModelAdapter, 'upsert' | 'find' | 'destroy'>;
}

export function createPasskeys(
  config: Pick<SignInConfig, 'issuer' | 'passkeys' | 'branding'>,
  db: Queryable,
  adapters: (model: string) => ModelAdapter,
): Passkeys {
  const rp = relyingParty(config);
  return {
    enabled: config.passkeys.enabled,
    rp,
    challenges: new PasskeyChallenges(adapters(PASSKEY_CHALLENGE_MODEL), rp.timeoutSeconds),
    passkeys: new PasskeyStore(db),
    offers: adapters(PASSKEY_OFFER_MODEL),
  };
}

// The challenges of passkey ceremonies: random, used once, and short-lived. They live in the engine's
// storage (model `PasskeyChallenge`), like the interactions they belong to: Redis when it is configured,
// else SQL, so that any instance can check the answer to a challenge another one issued. The challenge
// itself is the record's key (stored hashed, like every engine id): the browser's answer names it in its
// signed client data, so nothing else has to travel with it. Single use rests on the adapter's `consume`,
// atomic on both stores: of two requests presenting the same answer, exactly one goes on.
import { randomBytes } from 'node:crypto';
import { errors } from 'oidc-provider';
import type { ModelAdapter } from '../../adapters/adapter.ts';

export const PASSKEY_CHALLENGE_MODEL = 'PasskeyChallenge';

/** What a challenge was issued for: a sign-in in one interaction, or a new passkey for one account. */
export type ChallengePurpose = { kind: 'sign_in'; interactionUid: string } | { kind: 'register'; accountId: string; userHandle: string };

export type TakenChallenge =
  { ok: true; purpose: ChallengePurpose } | { ok: false; reason: 'challenge_unknown' | 'challenge_replayed' | 'challenge_expired' };

/** Kept this much longer than its validity, so that a late answer is told apart from a made-up one. */
const KEPT_AFTER_EXPIRY_SECONDS = 600;

export class PasskeyChallenges {
  constructor(
    private readonly records: Pick<ModelAdapter, 'upsert' | 'find' | 'consume'>,
    private readonly validSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new challenge (base64url) for `purpose`. */
  async issue(purpose: ChallengePurpose): Promise<string> {
    const challenge = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + this.validSeconds * 1000;
    await this.records.upsert(challenge, { purpose, expiresAt }, this.validSeconds + KEPT_AFTER_EXPIRY_SECONDS);
    return challenge;
  }

  /** Uses the challenge up: what it was issued for, or why it cannot be used. */
  async take(challenge: string): Promise<TakenChallenge> {
    if (!challenge || challenge.length > 200) return { ok: false, reason: 'challenge_unknown' };
    const record = await this.records.find(challenge);
    if (!record) return { ok: false, reason: 'challenge_unknown' };
    if (record.consumed) return { ok: false, reason: 'challenge_replayed' };
    try {
      await this.records.consume(challenge);
    } catch (error) {
      // Another request used it between the read and now; anything else (a store outage) is not ours to hide.
      if (error instanceof errors.InvalidGrant) return { ok: false, reason: 'challenge_replayed' };
      throw error;
    }
    if (typeof record.expiresAt !== 'number' || record.expiresAt < this.now()) return { ok: false, reason: 'challenge_expired' };
    return { ok: true, purpose: record.purpose as ChallengePurpose };
  }
}

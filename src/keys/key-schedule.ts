// When each signing key signs. Keys of one algorithm take turns: a key added by a rotation is published
// at once but signs only from its activation time, and from then on its predecessor only verifies (it
// stays in the JWKS until retired, so the tokens it signed still verify). Pure functions of the stored
// keys and the time, so that every instance, and the CLI, come to the same answer.
import type { PrivateJwk, PublicJwk, SigningAlgorithm } from './generate.ts';

export interface SigningKey {
  kid: string;
  alg: SigningAlgorithm;
  /** The private key while the key is published; a retired key keeps only its public part. */
  jwk: PrivateJwk | PublicJwk;
  /** Unknown for the keys of a JWKS file written before rotation existed. */
  createdAt?: Date;
  /** Signs from then on, until a newer key of its algorithm activates; unset: since always. */
  activatesAt?: Date;
  retiredAt?: Date;
}

/**
 * active: signs the new tokens of its algorithm. next: published, signs from its activation time.
 * previous: signed until a newer key activated; published so that its tokens still verify.
 * retired: no longer published.
 */
export type KeyState = 'active' | 'next' | 'previous' | 'retired';

export interface ScheduledKey extends SigningKey {
  state: KeyState;
  /** For a previous key: when it stopped signing (its successor's activation). */
  supersededAt?: Date;
}

const startOf = (key: SigningKey): number => key.activatesAt?.getTime() ?? 0;

/** Oldest activation first; equal times (keys generated together) by kid, for one order everywhere. */
const byActivation = (a: SigningKey, b: SigningKey): number => startOf(a) - startOf(b) || (a.kid < b.kid ? -1 : a.kid > b.kid ? 1 : 0);

export function scheduleKeys(keys: readonly SigningKey[], now: Date): ScheduledKey[] {
  const at = now.getTime();
  const scheduled: ScheduledKey[] = [];
  for (const alg of new Set(keys.map((k) => k.alg))) {
    const ofAlg = keys.filter((k) => k.alg === alg).sort(byActivation);
    const published = ofAlg.filter((k) => !k.retiredAt);
    const started = published.filter((k) => startOf(k) <= at);
    // The latest key that has started signs. Were none started (only a key waiting), the engine would
    // sign with the first one it holds: that key is then the active one, and listed first.
    const active = started.at(-1) ?? published[0];
    for (const key of ofAlg) {
      if (key.retiredAt) scheduled.push({ ...key, state: 'retired' });
      else if (key === active) scheduled.push({ ...key, state: 'active' });
      else if (startOf(key) > at) scheduled.push({ ...key, state: 'next' });
      else {
        // Its successor is the first key, retired or not, that started after it.
        const successor = ofAlg.find((k) => startOf(k) > startOf(key) && startOf(k) <= at && k !== key);
        scheduled.push({ ...key, state: 'previous', supersededAt: successor?.activatesAt });
      }
    }
  }
  return scheduled;
}

/**
 * The keys to give the engine, in the order that makes it sign with the active ones: it signs with the
 * first key of the requested algorithm it holds, and verifies with any. RS256 comes first of all.
 */
export function engineKeys(keys: readonly SigningKey[], now: Date): PrivateJwk[] {
  const scheduled = scheduleKeys(keys, now).filter((k) => k.state !== 'retired');
  const rank = (k: ScheduledKey): number => (k.state === 'active' ? (k.alg === 'RS256' ? 0 : 1) : 2);
  return scheduled.sort((a, b) => rank(a) - rank(b) || byActivation(b, a)).map((k) => k.jwk as PrivateJwk);
}

/** The next time a key starts signing, when one is waiting: the engine's keys change then. */
export function nextActivation(keys: readonly SigningKey[], now: Date): Date | undefined {
  const upcoming = keys.filter((k) => !k.retiredAt && startOf(k) > now.getTime()).sort(byActivation);
  return upcoming[0]?.activatesAt;
}

/** A rotation or retirement the schedule refuses; the message says why and what to do. */
export class KeyScheduleError extends Error {
  override name = 'KeyScheduleError';
}

/**
 * Checks that `kid` may leave the JWKS now. A key that signs may not; nor may one that stopped signing
 * less than `idTokenTtlSeconds` ago, since ID tokens it signed may still be checked against the JWKS,
 * unless `force` (a compromised key, whose tokens must stop verifying). A key that never signed may go.
 */
export function checkRetirement(
  keys: readonly SigningKey[],
  kid: string,
  now: Date,
  idTokenTtlSeconds: number,
  force = false,
): ScheduledKey {
  const key = scheduleKeys(keys, now).find((k) => k.kid === kid);
  if (!key) throw new KeyScheduleError(`no signing key with kid ${kid}`);
  if (key.state === 'retired') throw new KeyScheduleError(`signing key ${kid} is already retired`);
  if (key.state === 'active') {
    throw new KeyScheduleError(
      `signing key ${kid} signs the new ${key.alg} tokens: rotate first, and retire it once its successor signs and its tokens have expired`,
    );
  }
  if (key.state === 'previous' && !force) {
    const since = key.supersededAt?.getTime() ?? 0;
    const until = new Date(since + idTokenTtlSeconds * 1000);
    if (now < until) {
      throw new KeyScheduleError(
        `ID tokens signed by ${kid} may still be in use until ${until.toISOString()} (ttl.idToken after it stopped signing); retire it then, or now with --force if it is compromised`,
      );
    }
  }
  return key;
}

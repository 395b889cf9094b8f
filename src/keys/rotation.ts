// `signin keys rotate` (scheduled, or at once with --now) and `signin keys retire`, on any key source: the
// schedule's rules applied to the keys as stored now.
import { generateSigningKey, withRs256, type SigningAlgorithm } from './generate.ts';
import { checkRetirement, KeyScheduleError, scheduleKeys, type ScheduledKey, type SigningKey } from './key-schedule.ts';
import type { KeySource } from './key-source.ts';

export interface RotationOptions {
  now: Date;
  /** Seconds between publication and first signature (keys.rotationDelaySeconds); 0 signs at once. */
  delaySeconds: number;
  /** The algorithms to rotate; default: every algorithm that has a key signing now. */
  algorithms?: SigningAlgorithm[];
}

/** Adds one new key per algorithm, published now and signing after the delay; returns them. */
export async function rotateSigningKeys(source: KeySource, options: RotationOptions): Promise<SigningKey[]> {
  const scheduled = scheduleKeys(await source.read(), options.now);
  const algorithms = algorithmsToRotate(scheduled, options.algorithms);
  for (const alg of algorithms) {
    // Two keys waiting for one algorithm would leave the first to sign for the length of the delay only.
    const waiting = scheduled.find((k) => k.alg === alg && k.state === 'next');
    if (waiting) {
      throw new KeyScheduleError(
        `a new ${alg} key (${waiting.kid}) already waits to sign from ${waiting.activatesAt?.toISOString()}; retire it first to cancel that rotation, or replace the key at once with --now`,
      );
    }
  }
  const activatesAt = new Date(options.now.getTime() + options.delaySeconds * 1000);
  const added: SigningKey[] = [];
  for (const alg of algorithms) added.push(await source.add(generateSigningKey(alg), activatesAt));
  return added;
}

export interface ReplacementOptions {
  now: Date;
  /** The algorithms to replace; default: every algorithm that has a key signing now. */
  algorithms?: SigningAlgorithm[];
  /** Also take the keys that signed until now out of the JWKS: the tokens they signed stop verifying. */
  retireOld?: boolean;
}

export interface Replacement {
  /** The new keys, signing from now. */
  added: SigningKey[];
  /** Keys a rotation had scheduled (waiting to sign): cancelled, they never signed. */
  cancelled: ScheduledKey[];
  /** With retireOld: the keys that signed until now, out of the JWKS. */
  retired: ScheduledKey[];
}

/**
 * A key replaced at once, whatever rotation is scheduled (a leaked key): one new key per algorithm signs
 * from `now`, a key still waiting to sign is retired (it would otherwise take over from the new one at
 * its time), and, with `retireOld`, so is the key that signed until now. The new key is stored first, so
 * that a failure half-way leaves a service that signs with it and still publishes the others.
 */
export async function replaceSigningKeys(source: KeySource, options: ReplacementOptions): Promise<Replacement> {
  const scheduled = scheduleKeys(await source.read(), options.now);
  const algorithms = algorithmsToRotate(scheduled, options.algorithms);
  const replacement: Replacement = { added: [], cancelled: [], retired: [] };
  for (const alg of algorithms) replacement.added.push(await source.add(generateSigningKey(alg), options.now));
  for (const key of scheduled) {
    if (!algorithms.includes(key.alg)) continue;
    if (key.state === 'next') replacement.cancelled.push(key);
    else if (key.state === 'active' && options.retireOld) replacement.retired.push(key);
  }
  for (const key of [...replacement.cancelled, ...replacement.retired]) await source.retire(key);
  return replacement;
}

/** The algorithms named, or every one with a key signing now (RS256 first); each must have a key signing. */
function algorithmsToRotate(scheduled: readonly ScheduledKey[], requested: SigningAlgorithm[] | undefined): SigningAlgorithm[] {
  const inUse = new Set(scheduled.filter((k) => k.state === 'active').map((k) => k.alg));
  const algorithms = requested ?? withRs256([...inUse]).filter((alg) => inUse.has(alg));
  for (const alg of algorithms) {
    if (!inUse.has(alg)) throw new KeyScheduleError(`no ${alg} key to rotate: keys.algorithms lists the algorithms the service signs with`);
  }
  return algorithms;
}

export interface RetirementOptions {
  now: Date;
  /** The longest lifetime of an ID token (ttl.idToken). */
  idTokenTtlSeconds: number;
  force?: boolean;
}

/** Takes a key out of the JWKS when the schedule allows it (see checkRetirement); returns it as it was. */
export async function retireSigningKey(source: KeySource, kid: string, options: RetirementOptions): Promise<ScheduledKey> {
  const key = checkRetirement(await source.read(), kid, options.now, options.idTokenTtlSeconds, options.force);
  await source.retire(key);
  return key;
}

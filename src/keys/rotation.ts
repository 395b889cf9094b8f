// `signin keys rotate` and `signin keys retire`, on any key source: the schedule's rules applied to
// the keys as stored now.
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
  const inUse = new Set(scheduled.filter((k) => k.state === 'active').map((k) => k.alg));
  const algorithms = options.algorithms ?? withRs256([...inUse]).filter((alg) => inUse.has(alg));
  for (const alg of algorithms) {
    if (!scheduled.some((k) => k.alg === alg && k.state === 'active')) {
      throw new KeyScheduleError(`no ${alg} key to rotate: keys.algorithms lists the algorithms the service signs with`);
    }
    // Two keys waiting for one algorithm would leave the first to sign for the length of the delay only.
    const waiting = scheduled.find((k) => k.alg === alg && k.state === 'next');
    if (waiting) {
      throw new KeyScheduleError(
        `a new ${alg} key (${waiting.kid}) already waits to sign from ${waiting.activatesAt?.toISOString()}; retire it first to cancel that rotation`,
      );
    }
  }
  const activatesAt = new Date(options.now.getTime() + options.delaySeconds * 1000);
  const added: SigningKey[] = [];
  for (const alg of algorithms) added.push(await source.add(generateSigningKey(alg), activatesAt));
  return added;
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

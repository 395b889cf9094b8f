// The schedule every instance and the CLI compute from the stored keys and the time: which key signs,
// which waits, which only verifies, and when an old key may leave the JWKS.
import { describe, expect, it } from 'vitest';
import { checkRetirement, engineKeys, nextActivation, scheduleKeys, type SigningKey } from '../../src/keys/key-schedule.ts';
import type { PrivateJwk, SigningAlgorithm } from '../../src/keys/generate.ts';

const T0 = new Date('2026-01-01T00:00:00Z').getTime();
const at = (hours: number): Date => new Date(T0 + hours * 3600_000);

function key(kid: string, alg: SigningAlgorithm, activatesHour: number | undefined, retiredHour?: number): SigningKey {
  return {
    kid,
    alg,
    jwk: { kid, alg, use: 'sig', kty: alg === 'RS256' ? 'RSA' : 'EC' } as PrivateJwk,
    createdAt: at(0),
    activatesAt: activatesHour === undefined ? undefined : at(activatesHour),
    retiredAt: retiredHour === undefined ? undefined : at(retiredHour),
  };
}

const states = (keys: SigningKey[], hour: number) => Object.fromEntries(scheduleKeys(keys, at(hour)).map((k) => [k.kid, k.state]));

describe('the key schedule', () => {
  const keys = [
    key('rs-old', 'RS256', undefined),
    key('rs-new', 'RS256', 24),
    key('es', 'ES256', 0),
    key('rs-gone', 'RS256', undefined, 1),
  ];

  it('lets the newest started key of each algorithm sign, and the others wait or verify', () => {
    expect(states(keys, 1)).toEqual({ 'rs-old': 'active', 'rs-new': 'next', es: 'active', 'rs-gone': 'retired' });
    expect(states(keys, 24)).toEqual({ 'rs-old': 'previous', 'rs-new': 'active', es: 'active', 'rs-gone': 'retired' });
    expect(scheduleKeys(keys, at(25)).find((k) => k.kid === 'rs-old')?.supersededAt).toEqual(at(24));
  });

  it('gives the engine the signing keys first (RS256 first of all), then the published others, never a retired one', () => {
    expect(engineKeys(keys, at(1)).map((k) => k.kid)).toEqual(['rs-old', 'es', 'rs-new']);
    expect(engineKeys(keys, at(24)).map((k) => k.kid)).toEqual(['rs-new', 'es', 'rs-old']);
  });

  it('says when the next key starts signing', () => {
    expect(nextActivation(keys, at(1))).toEqual(at(24));
    expect(nextActivation(keys, at(24))).toBeUndefined();
  });

  it('lets a key waiting alone sign rather than leave an algorithm without a key', () => {
    expect(states([key('only', 'RS256', 5)], 1)).toEqual({ only: 'active' });
  });

  it('retires a previous key only after the ID-token lifetime, a waiting key at once, a signing key never', () => {
    const ttl = 3600;
    expect(() => checkRetirement(keys, 'rs-old', at(24.5), ttl)).toThrow(/may still be in use until 2026-01-02T01:00:00.000Z/);
    expect(checkRetirement(keys, 'rs-old', at(25), ttl).state).toBe('previous');
    expect(checkRetirement(keys, 'rs-old', at(24.5), ttl, true).state).toBe('previous');
    expect(checkRetirement(keys, 'rs-new', at(1), ttl).state).toBe('next');
    expect(() => checkRetirement(keys, 'rs-new', at(30), ttl, true)).toThrow(/signs the new RS256 tokens/);
    expect(() => checkRetirement(keys, 'rs-gone', at(30), ttl)).toThrow(/already retired/);
    expect(() => checkRetirement(keys, 'nope', at(30), ttl)).toThrow(/no signing key/);
  });
});

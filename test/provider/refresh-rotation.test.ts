// The refresh-token hooks on their own: every use rotates, a refresh token never outlives its grant,
// and an application in use keeps its grant (its remembered consent) alive.
import { describe, expect, it } from 'vitest';
import { keepGrantAlive, makeRefreshTokenTtl, makeRotateRefreshToken } from '../../src/provider/tokens/refresh-lifetimes.ts';

const DAY = 24 * 3600;
const REFRESH_TTL = 30 * DAY;

/** A grant with `remainingTTL` seconds left, recording how often it was saved and what exp it had. */
interface FakeGrant {
  remainingTTL: number;
  exp: number | undefined;
  saved: Array<number | undefined>;
  save(): Promise<string>;
}

function grant(remainingTTL: number): FakeGrant {
  const saved: Array<number | undefined> = [];
  const g: FakeGrant = {
    remainingTTL,
    exp: Math.floor(Date.now() / 1000) + remainingTTL,
    saved,
    async save() {
      saved.push(g.exp);
      return 'grant-id';
    },
  };
  return g;
}

describe('keepGrantAlive', () => {
  it('extends a grant with less than a refresh token’s lifetime left (exp cleared: the engine sets it anew)', async () => {
    const g = grant(10 * DAY);
    await keepGrantAlive(g, REFRESH_TTL);
    expect(g.saved).toEqual([undefined]);
  });

  it('leaves a grant alone while it has more than a refresh token’s lifetime minus a day left', async () => {
    const g = grant(REFRESH_TTL - DAY + 60);
    await keepGrantAlive(g, REFRESH_TTL);
    expect(g.saved).toEqual([]);
  });

  it('extends at most about once a day: a day into its lifetime, it is extended again', async () => {
    const g = grant(REFRESH_TTL - DAY);
    await keepGrantAlive(g, REFRESH_TTL);
    expect(g.saved).toHaveLength(1);
  });
});

describe('rotateRefreshToken', () => {
  it('always rotates, and keeps the grant of the refresh alive', async () => {
    const rotate = makeRotateRefreshToken(REFRESH_TTL);
    const g = grant(DAY);
    expect(await rotate({ oidc: { entities: { Grant: g } } })).toBe(true);
    expect(g.saved).toHaveLength(1);
    expect(await rotate({ oidc: { entities: {} } })).toBe(true);
  });
});

describe('refresh token lifetime', () => {
  const ABSOLUTE = 90 * DAY;
  const ttl = makeRefreshTokenTtl(REFRESH_TTL, ABSOLUTE);
  const nowEpoch = () => Math.floor(Date.now() / 1000);

  it('is the configured lifetime when the grant has longer left', () => {
    expect(ttl({ oidc: { entities: { Grant: grant(60 * DAY) } } })).toBe(REFRESH_TTL);
  });

  it('never exceeds what the grant has left', () => {
    expect(ttl({ oidc: { entities: { Grant: grant(3 * DAY) } } })).toBe(3 * DAY);
  });

  it('is the configured lifetime without a grant or outside a request', () => {
    expect(ttl({ oidc: { entities: {} } })).toBe(REFRESH_TTL);
    expect(ttl(undefined)).toBe(REFRESH_TTL);
    expect(ttl({ oidc: { entities: { Grant: grant(0) } } })).toBe(REFRESH_TTL);
  });

  it('never runs past the end of its family, however recently the family was used', () => {
    const grantLeft = { oidc: { entities: { Grant: grant(60 * DAY) } } };
    // A family started 85 days ago has 5 days left, whatever the configured lifetime.
    expect(ttl(grantLeft, { iiat: nowEpoch() - 85 * DAY })).toBe(5 * DAY);
    // A young family gets the full lifetime.
    expect(ttl(grantLeft, { iiat: nowEpoch() - DAY })).toBe(REFRESH_TTL);
  });
});

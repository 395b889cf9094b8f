// The storage contract of oidc-provider, as our adapters implement it.
import { errors } from 'oidc-provider';

export type Payload = Record<string, unknown> & {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
  jti?: string;
  rotations?: number;
  /** For a rotated refresh token's successor: the storage key of the token it replaced. */
  parent?: string;
};

export interface ModelAdapter {
  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export type AdapterFactory = (model: string) => ModelAdapter;

/** Models whose id is a bearer value or a value that must not be readable from a dump. */
export const SINGLE_USE_MODELS = new Set([
  'AuthorizationCode',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
]);

/**
 * The engine stores its id as `jti` in every payload; we keep it only where the engine needs it back
 * from a lookup that does not know it (`findByUid` of sessions). Everywhere else it is removed, since
 * for codes and tokens it is the token itself.
 */
export function stripId(model: string, payload: Payload): Payload {
  if (model === 'Session') return payload;
  const { jti: _jti, ...rest } = payload;
  return rest;
}

export function restoreId(model: string, id: string, payload: Payload): Payload {
  return model === 'Session' ? payload : { ...payload, jti: id };
}

/** Thrown by `consume` when another request consumed the value first: exactly one redemption wins. */
export function alreadyConsumed(model: string): Error {
  return new errors.InvalidGrant(`${model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);
}

export const DEFAULT_REFRESH_TOKEN_ABSOLUTE = 90 * 24 * 3600;

export interface AdapterOptions {
  /** Seconds during which a rotated refresh token may be presented again (parallel refreshes). */
  refreshTokenReuseGrace: number;
  /**
   * Seconds after the sign-in that started it at which a refresh-token family ends, however used (the
   * engine stops each token at that end; this is the family's own record of it). Default: 90 days.
   */
  refreshTokenAbsolute?: number;
}

/**
 * Where a presented refresh token stands in its family (see refresh-family.ts):
 * - `live`: one of the current tokens (its parent is the family's head);
 * - `grace`: the token rotated last, presented again within the reuse grace (a parallel refresh);
 * - `reuse`: anything else of a known family, including a token whose row is gone;
 * - `unknown`: nothing is known of it, or it names no family (a token issued before families existed
 *   is refused like any other unknown value).
 */
export type RefreshStanding = 'live' | 'grace' | 'reuse' | 'unknown';

export interface RefreshLookup {
  standing: RefreshStanding;
  /** What `find` answers for it: undefined when unknown, `consumed` set when it may not be used. */
  payload: Payload | undefined;
  /** The storage key of the token this one replaced (null for the first of a family). */
  parent: string | null;
  family?: { grantId: string; clientId: string; accountId: string };
}

/** Moving a family's head to the token `id` (or confirming a use within the grace). */
export interface Rotation {
  /** The presented refresh token. */
  id: string;
  /** Epoch seconds, on the clock that issued the tokens. */
  now: number;
  /** Expiry (epoch seconds) of the successor issued by this rotation. */
  successorExpiresAt?: number;
  /** The successor itself, when it is to be written by the same statement (only if the rotation wins). */
  successor?: { id: string; payload: Payload; expiresIn?: number };
}

/** The SQL store of refresh tokens adds families to the engine's contract. */
export interface RefreshTokenAdapter extends ModelAdapter {
  lookup(id: string, now: number): Promise<RefreshLookup>;
  /**
   * One statement (shared with the rotations that finish in the same turn): moves the head when `id` is
   * live, keeps it when `id` is the head within the grace; false when another use moved the family first
   * (then the presentation was a reuse).
   */
  commitRotation(rotation: Rotation): Promise<boolean>;
}

export function isRefreshTokenAdapter(adapter: ModelAdapter): adapter is RefreshTokenAdapter {
  return 'lookup' in adapter && 'commitRotation' in adapter;
}

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
export const SINGLE_USE_MODELS = new Set(['AuthorizationCode', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PushedAuthorizationRequest']);

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

export interface AdapterOptions {
  /** Seconds during which a rotated refresh token may be presented again (parallel refreshes). */
  refreshTokenReuseGrace: number;
}

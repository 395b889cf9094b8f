// Records which refresh token a successor replaced. Successors of one parent are siblings (parallel
// refreshes within the reuse grace), and the adapter ends the others when one is used. Without this
// link, two devices' chains in one grant could not be told apart from siblings.
//
// Relies on oidc-provider 9.13:
// - lib/provider.js: the static `Provider.ctx`, the request being handled (an AsyncLocalStorage store),
//   readable from adapter calls made while handling it;
// - lib/actions/grants/refresh_token.js: on rotation the engine consumes the old token, sets it as the
//   `RotatedRefreshToken` entity, and only then saves its successor through the adapter's `upsert`.
import Provider from 'oidc-provider';
import type { AdapterFactory } from '../../../adapters/adapter.ts';
import { storageKey } from '../../../adapters/token-key.ts';

/** The id of the refresh token the current request is rotating, if it is rotating one. */
export function rotatedRefreshTokenId(): string | undefined {
  return Provider.ctx?.oidc?.entities?.RotatedRefreshToken?.jti;
}

/** Wraps the storage so that each new refresh token records its parent (by storage key). */
export function withRefreshTokenLineage(adapters: AdapterFactory): AdapterFactory {
  return (model) => {
    const adapter = adapters(model);
    if (model !== 'RefreshToken') return adapter;
    return {
      ...adapter,
      upsert(id, payload, expiresIn) {
        const rotated = rotatedRefreshTokenId();
        const parent = rotated && rotated !== id ? storageKey(rotated) : undefined;
        return adapter.upsert(id, parent ? { ...payload, parent } : payload, expiresIn);
      },
    };
  };
}

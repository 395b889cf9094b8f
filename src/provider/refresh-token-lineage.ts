// Records which refresh token a successor replaced. Successors of one parent are siblings (parallel
// refreshes within the reuse grace), and the adapter ends the others when one is used. Without this
// link, two devices' chains in one grant could not be told apart from siblings.
import Provider from 'oidc-provider';
import type { AdapterFactory } from '../../adapters/adapter.ts';
import { storageKey } from '../../adapters/token-key.ts';

export function withRefreshTokenLineage(adapters: AdapterFactory): AdapterFactory {
  return (model) => {
    const adapter = adapters(model);
    if (model !== 'RefreshToken') return adapter;
    return {
      ...adapter,
      upsert(id, payload, expiresIn) {
        // The engine sets RotatedRefreshToken on the request just before it saves the successor.
        const rotated = Provider.ctx?.oidc?.entities?.RotatedRefreshToken as { jti?: string } | undefined;
        const parent = rotated?.jti && rotated.jti !== id ? storageKey(rotated.jti) : undefined;
        return adapter.upsert(id, parent ? { ...payload, parent } : payload, expiresIn);
      },
    };
  };
}

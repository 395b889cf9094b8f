// Refresh-token values that name their family (adapters/refresh-family.ts): `<family id>.<random>`. A
// code exchange starts a new family; a rotation keeps the family of the token it replaces. The random
// part is the engine's own opaque id, so it keeps `formats.bitsOfOpaqueRandomness`.
//
// Relies on oidc-provider 9.13:
// - lib/models/base_model.js: `save()` calls `this.generateTokenId()` for a model without a `jti`, the
//   prototype method inherited by `RefreshToken` (lib/models/refresh_token.js), which returns the
//   opaque random id (lib/models/formats/opaque.js) and is called without arguments;
// - the request context of token-requests.ts, for the token being rotated.
import type Provider from 'oidc-provider';
import { familyOf, familyTokenValue, newFamilyId } from '../../../adapters/refresh-family.ts';
import { rotatedRefreshTokenId } from './token-requests.ts';

export function useRefreshTokenFamilies(provider: Provider): void {
  const prototype = provider.RefreshToken.prototype as unknown as { generateTokenId(this: unknown): string };
  const randomId = prototype.generateTokenId;
  prototype.generateTokenId = function familyTokenId(this: unknown): string {
    const rotated = rotatedRefreshTokenId();
    const family = (rotated && familyOf(rotated)) || newFamilyId();
    return familyTokenValue(family, randomId.call(this));
  };
}

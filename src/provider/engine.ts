// The one door into oidc-provider's internals. Everything the service does with the engine beyond its
// documented configuration, hooks and `interactionDetails`/`interactionFinished` goes through here, so
// an engine upgrade means reading the files under `engine/` (each names the engine files it relies on,
// in oidc-provider 9.13) and running test/provider/engine-door.test.ts, which fails if any moved.
// Nothing outside src/provider builds engine objects or touches engine classes.
export { redeemAuthorizationCode, verifierMatches, type CodeRedemption, type RedeemedCode } from './engine/authorization-codes.ts';
export { useHashedClientSecrets } from './engine/client-secrets.ts';
export { saveGrant, type GrantInput } from './engine/grants.ts';
export { rotatedRefreshTokenId, withRefreshTokenLineage } from './engine/refresh-token-lineage.ts';
export {
  findSession,
  findSessionByUid,
  sessionCookieName,
  startSignedInSession,
  type EngineSession,
} from './engine/sessions.ts';

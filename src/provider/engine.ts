// The one door into oidc-provider's internals. Everything the service does with the engine beyond its
// documented configuration, hooks and `interactionDetails` goes through here, so an engine upgrade means
// reading the files under `engine/` (each names the engine files it relies on, in oidc-provider 9.13) and
// running test/provider/engine-door.test.ts, which fails if any moved.
// Nothing outside src/provider builds engine objects or touches engine classes.
export { holdErrorRedirects } from './engine/authorization-errors.ts';
export { redeemAuthorizationCode, verifierMatches, type CodeRedemption, type RedeemedCode } from './engine/authorization-codes.ts';
export { engineRequest, useHashedClientSecrets, type ChangedSecretHash, type ClientAuthGate } from './engine/client-secrets.ts';
export { CLIENT_CREDENTIALS, enforceClientGrants } from './engine/client-grants.ts';
export { rememberClientInstances } from './engine/client-instances.ts';
export { acceptSecretsOfPublicClients } from './engine/public-clients.ts';
export { saveGrant, type GrantInput } from './engine/grants.ts';
export { findEngineGrant, issueAuthorizationCode, type CodeToIssue, type EngineGrant } from './engine/issued-codes.ts';
export { finishInteraction, type InteractionDetails } from './engine/interactions.ts';
export { logoutFormWithoutSession, type LogoutForm } from './engine/logout-without-session.ts';
export { useRefreshTokenFamilies } from './engine/refresh-token-families.ts';
export { sessionTtl, withSessionRecords, type SessionRecords } from './engine/session-storage.ts';
export {
  authenticatedClientId,
  currentTokenRequest,
  openTokenRequest,
  rotatedRefreshTokenId,
  type PendingCommit,
  type TokenRequest,
} from './engine/token-requests.ts';
export { findSession, findSessionByUid, sessionCookieName, startSignedInSession, type EngineSession } from './engine/sessions.ts';
export { replaceSigningKeys } from './engine/signing-keys.ts';
export { EXTERNAL_SIGNING_ACK, PoolSigningKey, poolSigningKeys } from './engine/pool-signing-keys.ts';

// The engine's configuration as a pure function of our config and the hooks it needs: no I/O here,
// so what the service offers can be read (and tested) in one place.
import type { Client, Configuration, ErrorOut, FindAccount, KoaContextWithOIDC } from 'oidc-provider';
import type { SignInConfig } from '../config/schema.ts';
import type { ClientDefaults, DiscoveryExtras, EngineTtl, SigningAlgorithm } from './configuration-types.ts';
import { SCOPE_CLAIMS, SCOPES } from '../policy/scopes.ts';
import { issueRefreshToken, makeRefreshTokenTtl, makeRotateRefreshToken } from './tokens/refresh-lifetimes.ts';
import { issuerPath } from '../config/issuer-path.ts';
import { ROUTES, interactionUrl } from './paths.ts';
import { clientBasedCORS } from './cors.ts';
import { makePairwiseIdentifier } from './pairwise-identifier.ts';
import { cookieKeys } from '../http/cookie-keys.ts';
import { EXTERNAL_SIGNING_ACK, sessionTtl } from './engine.ts';
import { AUTHORIZATION_PARAM_CHECKS } from './authorization-params.ts';

export interface ProviderHooks {
  adapter: Configuration['adapter'];
  findAccount: FindAccount;
  loadExistingGrant: NonNullable<Configuration['loadExistingGrant']>;
  renderError: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => Promise<void> | void;
  logoutSource: (ctx: KoaContextWithOIDC, form: string) => Promise<void> | void;
  postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => Promise<void> | void;
  jwks: { keys: object[] };
}

/** RS256 stays for every client; ES256 and EdDSA are cheaper for those that ask. Never HS* (hashed secrets). */
const SIGNING_ALGS: readonly SigningAlgorithm[] = ['RS256', 'ES256', 'EdDSA'];

/** The secret in the body (the spec) or in HTTP Basic (RFC 6749 §2.3.1), at every endpoint that takes it. */
const CLIENT_AUTH_METHODS = ['client_secret_post', 'client_secret_basic'] as const;
/** Public clients (mobile, spa) authenticate with PKCE alone: `none` (client-metadata.ts, engine/public-clients.ts). */
const TOKEN_AUTH_METHODS = [...CLIENT_AUTH_METHODS, 'none'] as const;

/** Revocation and introspection: an application acts on its own tokens only. */
function ownTokensOnly(_ctx: unknown, client: Pick<Client, 'clientId'>, token: { clientId?: string | undefined }): boolean {
  return token.clientId === client.clientId;
}

/**
 * Introspection is for callers that authenticated (RFC 7662 §2.1): a public client must send its secret.
 * One without it is refused `401 invalid_client` before the engine (src/edge/client-auth-required.ts);
 * this check stays behind it, so that no way around the edge ever reads a token as a public client.
 */
function authenticatedOwnTokensOnly(
  ctx: unknown,
  client: Pick<Client, 'clientId' | 'clientAuthMethod'>,
  token: { clientId?: string | undefined },
): boolean {
  return client.clientAuthMethod !== 'none' && ownTokensOnly(ctx, client, token);
}

/**
 * The engine's configuration. Checked with `satisfies` (no cast anywhere): a misspelt key, here or in a
 * nested block, fails the typecheck instead of being silently ignored by the engine. The result keeps
 * its precise type, so tests can read and call what it sets.
 */
export function buildProviderConfiguration(config: SignInConfig, hooks: ProviderHooks) {
  const secure = config.issuer.startsWith('https://');
  // Mounted under a path (https://example.org/auth), the pages and the cookies live under it too.
  const prefix = issuerPath(config.issuer);
  return {
    adapter: hooks.adapter,
    findAccount: hooks.findAccount,
    loadExistingGrant: hooks.loadExistingGrant,
    renderError: hooks.renderError,
    jwks: hooks.jwks,
    routes: ROUTES,
    interactions: { url: (_ctx, interaction) => interactionUrl(interaction.uid, prefix) },

    // Users sign in through the authorization code flow only, with PKCE S256 for every client (the engine
    // knows only S256). Server applications get tokens for themselves with client_credentials (below).
    responseTypes: ['code'],
    pkce: { required: () => true },
    // Redirect URIs match exactly and must always be sent, as the spec requires.
    allowOmittingSingleRegisteredRedirectUri: false,
    // `state` required, answers in the query or by form_post only: checked once the client and the
    // redirect URI are (authorization-params.ts).
    extraParams: AUTHORIZATION_PARAM_CHECKS,
    // The secret in the body (the spec) or in HTTP Basic (RFC 6749 §2.3.1): both for every confidential
    // client; `none` (PKCE alone) for public ones. Discovery lists the three.
    clientAuthMethods: [...TOKEN_AUTH_METHODS],
    // Secrets are stored hashed, so nothing may use them as HMAC keys: no HS*, no client_secret_jwt.
    enabledJWA: {
      idTokenSigningAlgValues: SIGNING_ALGS,
      clientAuthSigningAlgValues: SIGNING_ALGS,
      requestObjectSigningAlgValues: SIGNING_ALGS,
      userinfoSigningAlgValues: SIGNING_ALGS,
      introspectionSigningAlgValues: SIGNING_ALGS,
      authorizationSigningAlgValues: SIGNING_ALGS,
      dPoPSigningAlgValues: ['ES256', 'EdDSA', 'RS256'],
    },

    // Minimal claims: each scope releases only its own claims; `claims` requests are off.
    scopes: [...SCOPES],
    // `amr` with `openid`: how the user signed in (pwd, hwk or swk for a passkey; RFC 8176), from the session
    // the engine keeps, in every ID token. The account itself never holds it, so userinfo does not show it.
    claims: {
      ...Object.fromEntries(Object.entries(SCOPE_CLAIMS).map(([scope, claims]) => [scope, [...claims]])),
      openid: [...SCOPE_CLAIMS.openid, 'amr'],
    },
    conformIdTokenClaims: true,
    subjectTypes: ['pairwise'],
    pairwiseIdentifier: makePairwiseIdentifier(config.secrets.pairwiseSalt),
    sectorIdentifierUriValidate: () => false,
    extraClientMetadata: { properties: ['description', 'app_type'] },
    clientBasedCORS,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'RS256',
      subject_type: 'pairwise',
    } satisfies ClientDefaults,

    issueRefreshToken,
    rotateRefreshToken: makeRotateRefreshToken(config.ttl.refreshToken),
    // Refresh tokens outlive the browser session: signing out of the service does not sign the user
    // out of every application (the account page revokes applications one by one).
    expiresWithSession: () => false,

    ttl: {
      AccessToken: config.ttl.accessToken,
      // The access token of a server application (client_credentials) lives as long as a user's.
      ClientCredentials: config.ttl.accessToken,
      AuthorizationCode: config.ttl.authorizationCode,
      IdToken: config.ttl.idToken,
      RefreshToken: makeRefreshTokenTtl(config.ttl.refreshToken, config.ttl.refreshTokenAbsolute),
      // Idle lifetime, renewed by activity, and never past `sessionAbsolute` after the sign-in.
      Session: sessionTtl(config.ttl.session, config.ttl.sessionAbsolute),
      // A grant (a remembered consent) outlives both the session and the refresh tokens issued under
      // it; each sign-in and refresh extends it (refresh-lifetimes.ts).
      Grant: Math.max(config.ttl.session, config.ttl.refreshToken),
      Interaction: config.ttl.interaction,
      // Pushed authorization requests live 60 s: a fixed maximum of the engine
      // (lib/actions/authorization/pushed_authorization_requests.js), not a ttl setting.
    } satisfies EngineTtl,

    cookies: {
      keys: cookieKeys(config.secrets.cookieKeys),
      // The session cookie is the service's: under its prefix, never sent to the routes of a host app.
      // (The short-lived interaction cookies take the path of their interaction or resume URL.)
      long: { httpOnly: true, sameSite: 'lax', secure, path: prefix || '/' },
      short: { httpOnly: true, sameSite: 'lax', secure },
    },

    features: {
      devInteractions: { enabled: false },
      // The signing keys are given as ExternalSigningKey (engine/pool-signing-keys.ts): signatures made
      // on the thread pool, most of their work off the event loop.
      externalSigningSupport: { enabled: true, ack: EXTERNAL_SIGNING_ACK },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        // A token of another application is left alone and the answer is the same 200 as for an
        // unknown token (RFC 7009 §2.2), so the caller learns nothing about it.
        allowedPolicy: ownTokensOnly,
      },
      introspection: {
        enabled: true,
        // An application (or its resource servers, with its credentials) may introspect its own tokens
        // only; anything else is reported inactive, so pairwise identifiers never cross applications.
        // A public client that did not send its secret has not authenticated: refused 401 at the edge,
        // and inactive here should one get this far.
        allowedPolicy: authenticatedOwnTokensOnly,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: hooks.logoutSource,
        postLogoutSuccessSource: hooks.postLogoutSuccessSource,
      },
      // Sender-constrained tokens for clients that ask (RFC 9449); never required.
      dPoP: { enabled: true },
      // PAR (RFC 9126) for clients that prefer it; plain query requests keep working.
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
      // One protected resource (userinfo): resource indicators would only add surface.
      resourceIndicators: { enabled: false },
      claimsParameter: { enabled: false },
      requestObjects: { enabled: false },
      registration: { enabled: false },
      // Server applications (type `server`) only: the grant is in no other client's grant_types
      // (client-metadata.ts), and its tokens name no user and carry no scope (engine/client-grants.ts).
      clientCredentials: { enabled: true },
      deviceFlow: { enabled: false },
      encryption: { enabled: false },
    },

    discovery: {
      ui_locales_supported: config.languages.supported,
      claims_locales_supported: config.languages.supported,
      // The engine lists the token endpoint's methods only; revocation and introspection take the same.
      revocation_endpoint_auth_methods_supported: TOKEN_AUTH_METHODS,
      introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    } satisfies DiscoveryExtras,
  } satisfies Configuration;
}

export type ProviderConfiguration = ReturnType<typeof buildProviderConfiguration>;

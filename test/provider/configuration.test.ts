// The engine's configuration, built on its own (no engine, no server): what the service turns on and
// off, read from the pure factory.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { SCOPE_CLAIMS, SCOPES } from '../../src/policy/scopes.ts';
import { buildProviderConfiguration, type ProviderHooks } from '../../src/provider/configuration.ts';

const config = parseConfig({
  issuer: 'https://signin.example.org',
  secrets: { cookieKeys: ['a'.repeat(43)], pairwiseSalt: 'b'.repeat(43) },
  storage: { kind: 'embedded', dataDir: 'memory://' },
  ttl: { accessToken: 1800, refreshToken: 20 * 24 * 3600, session: 7 * 24 * 3600, idToken: 900, interaction: 600 },
});

const hooks: ProviderHooks = {
  adapter: undefined,
  findAccount: async () => undefined,
  loadExistingGrant: async () => undefined,
  renderError: () => {},
  logoutSource: () => {},
  postLogoutSuccessSource: () => {},
  jwks: { keys: [] },
};

const configuration = buildProviderConfiguration(config, hooks);

/** Every string anywhere in a value, functions aside. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('the engine configuration', () => {
  it('offers the authorization code flow only, with PKCE required of every client', () => {
    expect(configuration.responseTypes).toEqual(['code']);
    expect(configuration.clientDefaults.response_types).toEqual(['code']);
    expect(configuration.clientDefaults.grant_types).toEqual(['authorization_code', 'refresh_token']);
    expect(configuration.pkce.required()).toBe(true);
    expect(configuration.allowOmittingSingleRegisteredRedirectUri).toBe(false);
  });

  it('authenticates clients by secret, in the body or in HTTP Basic, and never with an HMAC', () => {
    // `none`: mobile apps and single-page apps, public clients protected by PKCE (client-metadata.ts).
    expect(configuration.clientAuthMethods).toEqual(['client_secret_post', 'client_secret_basic', 'none']);
    expect(configuration.clientDefaults.token_endpoint_auth_method).toBe('client_secret_post');
    const everything = strings(configuration);
    expect(everything.filter((s) => /^HS\d+$/.test(s))).toEqual([]);
    expect(everything).not.toContain('client_secret_jwt');
    expect(configuration.enabledJWA.idTokenSigningAlgValues).toContain('RS256');
    expect(configuration.features.encryption.enabled).toBe(false);
  });

  it('releases per scope only that scope’s claims, and only pairwise subjects', () => {
    expect(configuration.scopes).toEqual([...SCOPES]);
    // `amr` says in the ID token how the user signed in (RFC 8176); it is the session's, not the account's.
    expect(configuration.claims).toEqual({
      openid: [...SCOPE_CLAIMS.openid, 'amr'],
      email: [...SCOPE_CLAIMS.email],
      profile: [...SCOPE_CLAIMS.profile],
      phone: [...SCOPE_CLAIMS.phone],
    });
    expect(configuration.conformIdTokenClaims).toBe(true);
    expect(configuration.features.claimsParameter.enabled).toBe(false);
    expect(configuration.subjectTypes).toEqual(['pairwise']);
    expect(configuration.clientDefaults.subject_type).toBe('pairwise');
    // Each client gets its own synthetic sector, so several redirect hosts need no sector document.
    expect(configuration.sectorIdentifierUriValidate()).toBe(false);
  });

  it('gives every artefact the lifetime of the config file', () => {
    const { ttl } = configuration;
    expect(ttl.AccessToken).toBe(1800);
    expect(ttl.AuthorizationCode).toBe(config.ttl.authorizationCode);
    expect(ttl.IdToken).toBe(900);
    // A session lives its idle lifetime, and never past its absolute end (30 days after sign-in).
    const now = Math.floor(Date.now() / 1000);
    expect(ttl.Session(undefined, {})).toBe(7 * 24 * 3600);
    expect(ttl.Session(undefined, { loginTs: now })).toBe(7 * 24 * 3600);
    expect(ttl.Session(undefined, { loginTs: now - 25 * 24 * 3600 })).toBe(5 * 24 * 3600);
    expect(ttl.Interaction).toBe(600);
    // Outside a request (no grant to bound it), a refresh token gets the configured lifetime.
    expect(ttl.RefreshToken(undefined)).toBe(20 * 24 * 3600);
    // A remembered consent outlives both the session and the refresh tokens issued under it.
    expect(ttl.Grant).toBe(20 * 24 * 3600);
  });

  it('issues refresh tokens that outlive the browser session and rotate on every use', async () => {
    expect(configuration.expiresWithSession()).toBe(false);
    expect(await configuration.rotateRefreshToken({ oidc: { entities: {} } })).toBe(true);
    expect(configuration.issueRefreshToken(undefined, { grantTypeAllowed: (type) => type === 'refresh_token' })).toBe(true);
    expect(configuration.issueRefreshToken(undefined, { grantTypeAllowed: () => false })).toBe(false);
  });

  it('turns on what the service offers and off what it does not', () => {
    const { features } = configuration;
    expect(features.userinfo.enabled).toBe(true);
    expect(features.revocation.enabled).toBe(true);
    expect(features.introspection.enabled).toBe(true);
    expect(features.rpInitiatedLogout.enabled).toBe(true);
    expect(features.dPoP.enabled).toBe(true);
    expect(features.pushedAuthorizationRequests).toEqual({ enabled: true, requirePushedAuthorizationRequests: false });
    // For server applications only (their grant_types; test/e2e/client-credentials.test.ts).
    expect(features.clientCredentials.enabled).toBe(true);
    for (const off of [
      features.devInteractions,
      features.resourceIndicators,
      features.requestObjects,
      features.registration,
      features.deviceFlow,
    ]) {
      expect(off.enabled).toBe(false);
    }
  });

  it('lets an application revoke and introspect its own tokens only', () => {
    const client = { clientId: 'app-a' };
    for (const policy of [configuration.features.revocation.allowedPolicy, configuration.features.introspection.allowedPolicy]) {
      expect(policy(undefined, client, { clientId: 'app-a' })).toBe(true);
      expect(policy(undefined, client, { clientId: 'app-b' })).toBe(false);
    }
  });

  it('puts every engine route under /oauth/, and interactions under /interaction/', () => {
    const paths = Object.values(configuration.routes);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^\/oauth\//);
    expect(configuration.routes.authorization).toBe('/oauth/authorize');
    expect(configuration.routes.token).toBe('/oauth/token');
    expect(configuration.routes.userinfo).toBe('/oauth/userinfo');
    expect(configuration.routes.revocation).toBe('/oauth/token/revoke');
  });

  it('keeps cookies HttpOnly and SameSite, Secure behind https, signed with the configured keys', () => {
    // The signer (src/http/cookie-keys.ts) signs with the first configured key.
    const [first] = config.secrets.cookieKeys;
    const expected = createHmac('sha1', first!).update('_session=abc').digest('base64url');
    expect((configuration.cookies.keys as { sign(data: string): string }).sign('_session=abc')).toBe(expected);
    for (const cookie of [configuration.cookies.long, configuration.cookies.short]) {
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'lax', secure: true });
    }
    // The session cookie under the issuer's path; the interaction cookies take their page's path.
    expect(configuration.cookies.long.path).toBe('/');
    expect(configuration.cookies.short).not.toHaveProperty('path');
    const local = buildProviderConfiguration({ ...config, issuer: 'http://127.0.0.1:3000' }, hooks);
    expect(local.cookies.long.secure).toBe(false);
  });

  it('publishes the supported languages and client authentication methods, and passes the service hooks through unchanged', () => {
    expect(configuration.discovery).toEqual({
      ui_locales_supported: config.languages.supported,
      claims_locales_supported: config.languages.supported,
      revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    });
    expect(configuration.findAccount).toBe(hooks.findAccount);
    expect(configuration.loadExistingGrant).toBe(hooks.loadExistingGrant);
    expect(configuration.renderError).toBe(hooks.renderError);
    expect(configuration.features.rpInitiatedLogout.logoutSource).toBe(hooks.logoutSource);
    expect(configuration.jwks).toBe(hooks.jwks);
  });
});

// Every engine route under /oauth/ (the spec's four, plus the ones a relying party discovers).
export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  revocation: '/oauth/token/revoke',
  introspection: '/oauth/token/introspect',
  jwks: '/oauth/jwks',
  end_session: '/oauth/logout',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  registration: '/oauth/register',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
} as const;

/** The page of an interaction, under the prefix the issuer carries (`/auth/interaction/<uid>` when mounted at /auth). */
export const interactionUrl = (uid: string, prefix = ''): string => `${prefix}/interaction/${uid}`;

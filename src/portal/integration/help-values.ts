// What every block of the integration help is written from: this application's own values, and the
// service's URLs. Placeholders in UPPER_CASE stand for what changes per sign-in (STATE, CODE...); the
// client_secret is never filled in (it is shown once, and only its hash is kept).
import type { RegisteredClient } from '../../clients/registry.ts';
import { isPublicClient } from '../../provider/client-metadata.ts';
import { ROUTES } from '../../provider/paths.ts';

export interface HelpValues {
  issuer: string;
  clientId: string;
  /** The first registered redirect URI: where the snippets expect the code. */
  redirectUri: string;
  scopes: string[];
  /** A mobile app or a single-page app: PKCE alone at the token endpoint, no secret in the app. */
  publicClient: boolean;
  /** A development issuer over http: the libraries refuse it unless told, and the snippets tell them. */
  insecureIssuer: boolean;
  urls: {
    discovery: string;
    authorization: string;
    token: string;
    userinfo: string;
    endSession: string;
  };
}

export function helpValues(issuer: string, client: RegisteredClient): HelpValues {
  return {
    issuer,
    clientId: client.clientId,
    redirectUri: client.redirectUris[0] ?? 'REDIRECT_URI',
    scopes: client.scopes,
    publicClient: isPublicClient(client),
    insecureIssuer: issuer.startsWith('http:'),
    urls: {
      discovery: `${issuer}/.well-known/openid-configuration`,
      authorization: issuer + ROUTES.authorization,
      token: issuer + ROUTES.token,
      userinfo: issuer + ROUTES.userinfo,
      endSession: issuer + ROUTES.end_session,
    },
  };
}

/** A URL with its query written by hand: URLSearchParams writes a space as '+', guides and libraries show '%20'. */
export function urlWithQuery(base: string, params: Array<[string, string]>): string {
  return `${base}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

/** A double-quoted string literal for Kotlin and Swift (JSON's escaping is valid in both). */
export const literal = (value: string): string => JSON.stringify(value);

/** A single-quoted string literal, as JavaScript and Python code is usually written. */
export const quoted = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

// The integration help of an application's page: the URLs and the curl commands an owner pastes,
// with this client's values filled in and placeholders (UPPER_CASE) for what changes per sign-in.
import type { RegisteredClient } from '../clients/registry.ts';
import { isMachineClient, isPublicClient } from '../provider/client-metadata.ts';
import { ROUTES } from '../provider/paths.ts';

export interface IntegrationHelp {
  /** A mobile app or a single-page app: PKCE alone at the token endpoint, no secret in the app. */
  publicClient: boolean;
  /** A server application: client_credentials, no user, so no authorize URL and no userinfo. */
  machine?: MachineHelp;
  discoveryUrl: string;
  authorizeUrl: string;
  tokenCurl: string;
  refreshCurl: string;
  userinfoCurl: string;
}

export function integrationHelp(issuer: string, client: RegisteredClient): IntegrationHelp {
  const redirectUri = client.redirectUris[0] ?? 'REDIRECT_URI';
  const authorize = new URL(issuer + ROUTES.authorization);
  // Built by hand: URLSearchParams writes a space as '+', and '%20' is what guides and libraries show.
  authorize.search = [
    ['response_type', 'code'],
    ['client_id', client.clientId],
    ['redirect_uri', redirectUri],
    ['scope', client.scopes.join(' ')],
    ['state', 'STATE'],
    ['code_challenge', 'CODE_CHALLENGE'],
    ['code_challenge_method', 'S256'],
  ]
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  const token = issuer + ROUTES.token;
  // A public client's secret would be public once shipped: its examples leave it out (it is accepted if sent).
  const publicClient = isPublicClient(client);
  const secret: Array<[string, string]> = publicClient ? [] : [['client_secret', 'CLIENT_SECRET']];
  return {
    publicClient,
    machine: isMachineClient(client) ? machineHelp(issuer, client) : undefined,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    authorizeUrl: authorize.href,
    tokenCurl: curlPost(token, [
      ['grant_type', 'authorization_code'],
      ['code', 'CODE'],
      ['redirect_uri', redirectUri],
      ['code_verifier', 'CODE_VERIFIER'],
      ['client_id', client.clientId],
      ...secret,
    ]),
    refreshCurl: curlPost(token, [
      ['grant_type', 'refresh_token'],
      ['refresh_token', 'REFRESH_TOKEN'],
      ['client_id', client.clientId],
      ...secret,
    ]),
    userinfoCurl: `curl ${shellQuote(issuer + ROUTES.userinfo)} \\\n  -H 'Authorization: Bearer ACCESS_TOKEN'`,
  };
}

export interface MachineHelp {
  clientCredentialsCurl: string;
  introspectCurl: string;
  revokeCurl: string;
}

/** A server application's calls: a token for itself (RFC 6749 §4.4), then introspection and revocation of it. */
function machineHelp(issuer: string, client: RegisteredClient): MachineHelp {
  const credentials: Array<[string, string]> = [
    ['client_id', client.clientId],
    ['client_secret', 'CLIENT_SECRET'],
  ];
  return {
    clientCredentialsCurl: curlPost(issuer + ROUTES.token, [['grant_type', 'client_credentials'], ...credentials]),
    introspectCurl: curlPost(issuer + ROUTES.introspection, [['token', 'ACCESS_TOKEN'], ...credentials]),
    revokeCurl: curlPost(issuer + ROUTES.revocation, [['token', 'ACCESS_TOKEN'], ...credentials]),
  };
}

/** One `-d` per parameter, as the spec's examples write them. */
function curlPost(url: string, params: Array<[string, string]>): string {
  const lines = params.map(([name, value]) => `  -d ${shellQuote(`${name}=${formValue(value)}`)}`);
  return [`curl -X POST ${shellQuote(url)}`, ...lines].join(' \\\n');
}

/** `-d` sends its value as typed: only the characters that mean something in a form body are encoded. */
const formValue = (value: string): string => value.replace(/[%&+=#\s]/g, (c) => encodeURIComponent(c));

/** Single quotes keep every character literal in a POSIX shell; a quote inside is closed and escaped. */
const shellQuote = (value: string): string => (/^[\w./:=@%?-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

// The protocol by hand, with curl: the PKCE recipe (RFC 7636) and a fresh `state`, the authorization URL,
// the code exchange, userinfo and the refresh. What a library does for the other sections, step by step,
// with placeholders (UPPER_CASE) for what changes per sign-in. A server application's calls
// (client_credentials, introspection, revocation) are written the same way.
import { ROUTES } from '../../provider/paths.ts';
import { STATE_NOTE, type HelpSection } from './help-blocks.ts';
import { urlWithQuery, type HelpValues } from './help-values.ts';

export function curlSection(v: HelpValues): HelpSection {
  // A public client's secret would be public once shipped: its examples leave it out (it is accepted if sent).
  const secret: Array<[string, string]> = v.publicClient ? [] : [['client_secret', 'CLIENT_SECRET']];
  return {
    id: 'help-section-curl',
    title: 'help.curl.title',
    intro: v.publicClient ? 'help.introPublic' : 'help.intro',
    blocks: [
      { id: 'help-pkce', title: 'help.pkce', lang: 'shell', code: PKCE_RECIPE },
      { id: 'help-authorize', title: 'help.authorize', note: STATE_NOTE, lang: 'url', code: authorizeUrl(v) },
      {
        id: 'help-token',
        title: 'help.token',
        lang: 'shell',
        code: curlPost(v.urls.token, [
          ['grant_type', 'authorization_code'],
          ['code', 'CODE'],
          ['redirect_uri', v.redirectUri],
          ['code_verifier', 'CODE_VERIFIER'],
          ['client_id', v.clientId],
          ...secret,
        ]),
      },
      {
        id: 'help-userinfo',
        title: 'help.userinfo',
        lang: 'shell',
        code: `curl ${shellQuote(v.urls.userinfo)} \\\n  -H 'Authorization: Bearer ACCESS_TOKEN'`,
      },
      {
        id: 'help-refresh',
        title: 'help.refresh',
        lang: 'shell',
        code: curlPost(v.urls.token, [
          ['grant_type', 'refresh_token'],
          ['refresh_token', 'REFRESH_TOKEN'],
          ['client_id', v.clientId],
          ...secret,
        ]),
      },
    ],
  };
}

/** The authorization URL of a sign-in, with STATE and CODE_CHALLENGE to replace. */
export function authorizeUrl(v: HelpValues): string {
  return urlWithQuery(v.urls.authorization, [
    ['response_type', 'code'],
    ['client_id', v.clientId],
    ['redirect_uri', v.redirectUri],
    ['scope', v.scopes.join(' ')],
    ['state', 'STATE'],
    ['code_challenge', 'CODE_CHALLENGE'],
    ['code_challenge_method', 'S256'],
  ]);
}

// New values for every sign-in: the verifier stays with the application until the code exchange, the
// challenge goes in the URL; state comes back with the code and must be the one sent.
const PKCE_RECIPE = `CODE_VERIFIER=$(openssl rand -base64 48 | tr '+/' '-_' | tr -d '=\\n')
CODE_CHALLENGE=$(printf '%s' "$CODE_VERIFIER" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d '=')
STATE=$(openssl rand -hex 16)
echo "CODE_VERIFIER=$CODE_VERIFIER CODE_CHALLENGE=$CODE_CHALLENGE STATE=$STATE"`;

/** A server application's calls: a token for itself (RFC 6749 §4.4), then introspection and revocation of it. */
export function machineSection(v: HelpValues): HelpSection {
  const credentials: Array<[string, string]> = [
    ['client_id', v.clientId],
    ['client_secret', 'CLIENT_SECRET'],
  ];
  return {
    id: 'help-section-machine',
    title: 'help.curl.title',
    intro: 'help.introServer',
    blocks: [
      {
        id: 'help-client-credentials',
        title: 'help.clientCredentials',
        lang: 'shell',
        code: curlPost(v.urls.token, [['grant_type', 'client_credentials'], ...credentials]),
      },
      {
        id: 'help-introspect',
        title: 'help.introspect',
        lang: 'shell',
        code: curlPost(v.issuer + ROUTES.introspection, [['token', 'ACCESS_TOKEN'], ...credentials]),
      },
      {
        id: 'help-revoke',
        title: 'help.revoke',
        lang: 'shell',
        code: curlPost(v.issuer + ROUTES.revocation, [['token', 'ACCESS_TOKEN'], ...credentials]),
      },
    ],
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

// Which web origins may ask for a sign-in through the browser's account chooser (FedCM) for an application.
// The browser tells the ID assertion endpoint the origin of the page that asked, and the code is answered to
// that origin alone (CORS, never `*`), so the origin plays the part the redirect URI plays in the redirect
// flow: by default the https origins of the application's redirect URIs, plus the ones its owner or an
// operator added. An added origin is checked as a redirect URI is (redirect-uris.ts: canonical, https, no
// user part), and is a bare origin: scheme, host and port, no path.
import { redirectUriProblem, type RedirectUriProblem } from './redirect-uris.ts';
import type { FieldError } from './validate.ts';

export type FedcmOriginProblem = RedirectUriProblem | 'fedcm_origin.not_origin';

/** What is wrong with `value` as an added FedCM origin; undefined when it may be registered. */
export function fedcmOriginProblem(value: string): FedcmOriginProblem | undefined {
  const raw = value.trim();
  // The rules of a web application's redirect URI: https only, canonical, no user part, no fragment.
  const problem = redirectUriProblem(raw, 'web');
  if (problem && problem !== 'redirect_uri.not_canonical') return problem;
  const url = URL.parse(raw);
  if (!url) return 'redirect_uri.not_absolute';
  // (The redirect-URI rules judge `https://host` non-canonical, for its missing path, before its scheme.)
  if (url.protocol !== 'https:') return 'redirect_uri.https_required';
  if (url.origin === 'null' || raw !== url.origin) return 'fedcm_origin.not_origin';
  return undefined;
}

/** Each rule in a sentence, for the CLI. */
export const FEDCM_ORIGIN_RULE = 'must be an https origin written as the browser sends it: https://host or https://host:port, no path';

export function fedcmOriginProblems(origins: readonly string[]): FieldError[] {
  return origins.flatMap((origin) => {
    const code = fedcmOriginProblem(origin);
    return code ? [{ field: 'fedcmOrigins' as const, code, value: origin }] : [];
  });
}

/** Every origin that may ask for this application: its https redirect URIs' origins, then the added ones. */
export function fedcmOriginsOf(client: { redirectUris: readonly string[]; fedcmOrigins: readonly string[] }): string[] {
  const origins = new Set<string>();
  for (const uri of client.redirectUris) {
    const url = URL.parse(uri);
    if (url?.protocol === 'https:') origins.add(url.origin);
  }
  for (const origin of client.fedcmOrigins) origins.add(origin);
  return [...origins];
}

// The rules every redirect URI obeys, in one place: the registry applies them to what the CLI and the
// portal register, the authorization endpoint refuses an application that still has a URI registered
// before a rule existed, and `signin client list` reports those applications.
//
// A redirect URI is where the service sends a user's authorization code, so it must name exactly one
// place that belongs to the application:
//  - absolute, compared exactly (no wildcard);
//  - no user or password part: `https://rp.example@evil.test/cb` reads as rp.example to a person but
//    its host is evil.test;
//  - no fragment (RFC 6749 §3.1.2);
//  - `https`, or `http` only on a loopback host (`localhost`, `127.0.0.1`, `[::1]`, any port: RFC 8252
//    §7.3, for a native app's local listener);
//  - for mobile apps only, a private-use scheme in reverse-domain form (`com.example.app:/callback`,
//    RFC 8252 §7.1).

export type RedirectUriProblem =
  | 'redirect_uri.wildcard'
  | 'redirect_uri.not_absolute'
  | 'redirect_uri.userinfo'
  | 'redirect_uri.fragment'
  | 'redirect_uri.https_required'
  | 'redirect_uri.mobile_scheme';

/** Each rule in a sentence, for the CLI and the log; the pages translate the code themselves. */
export const REDIRECT_URI_RULES: Readonly<Record<RedirectUriProblem, string>> = {
  'redirect_uri.wildcard': 'must not contain a wildcard (*): every URI is matched exactly',
  'redirect_uri.not_absolute': 'is not an absolute URI',
  'redirect_uri.userinfo': 'must not contain a user name or password (user@host): the browser would go to the host after the @',
  'redirect_uri.fragment': 'must not contain a fragment (#)',
  'redirect_uri.https_required': 'must use https (http only for localhost, 127.0.0.1 and [::1])',
  'redirect_uri.mobile_scheme':
    'must use https, http on a loopback address, or a private-use scheme in reverse-domain form (com.example.app:/callback)',
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// RFC 8252 §7.1: a private-use scheme in reverse-domain form, e.g. com.example.app
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;

/** What is wrong with `raw` as a redirect URI of an application of type `appType`; undefined when it may be registered. */
export function redirectUriProblem(value: string, appType: string): RedirectUriProblem | undefined {
  // The registry stores each URI trimmed (registry.ts), so the rules judge it trimmed.
  const raw = value.trim();
  if (raw.includes('*')) return 'redirect_uri.wildcard';
  const url = URL.parse(raw);
  // A URL with a space or a control character is not the one the browser would be sent to.
  if (!url || /[\s\u0000-\u001f\u007f]/u.test(raw)) return 'redirect_uri.not_absolute';
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)) return 'redirect_uri.userinfo';
  if (raw.includes('#')) return 'redirect_uri.fragment';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname ? undefined : 'redirect_uri.not_absolute';
  if (scheme === 'http') return LOOPBACK.has(url.hostname) ? undefined : 'redirect_uri.https_required';
  if (appType === 'mobile' && REVERSE_DOMAIN_SCHEME.test(scheme)) return undefined;
  return appType === 'mobile' ? 'redirect_uri.mobile_scheme' : 'redirect_uri.https_required';
}

/** The registered URIs of an application that break a rule, each with its problem. */
export function invalidRedirectUris(client: {
  redirectUris: readonly string[];
  appType: string;
}): Array<{ uri: string; problem: RedirectUriProblem }> {
  return client.redirectUris.flatMap((uri) => {
    const problem = redirectUriProblem(uri, client.appType);
    return problem ? [{ uri, problem }] : [];
  });
}

/**
 * One line per registered application whose redirect URIs break a rule (registered before the rule
 * existed): it is refused at authorization until its owner replaces them. Applications of the service
 * itself are left out: their URI is the service's own address, whatever scheme the operator chose.
 */
export function invalidRedirectUriReport(
  clients: ReadonlyArray<{ clientId: string; appType: string; redirectUris: readonly string[]; firstParty?: boolean }>,
): string[] {
  return clients
    .filter((client) => !client.firstParty)
    .flatMap((client) =>
      invalidRedirectUris(client).map(
        ({ uri, problem }) =>
          `warning: ${client.clientId}: redirect URI ${uri} ${REDIRECT_URI_RULES[problem]}; sign-ins to this application are refused until it is replaced (signin client update ${client.clientId} --redirect-uri ...)`,
      ),
    );
}

// The rules every redirect URI obeys, in one place: the registry applies them to what the CLI and the
// portal register, the authorization endpoint refuses an application that still has a URI registered
// before a rule existed, and `signin client list` reports those applications.
//
// A redirect URI is where the service sends a user's authorization code, so it must name exactly one
// place that belongs to the application, the same place for every reader (a browser, the engine that
// compares it character by character, an application's OAuth library, a person):
//  - absolute, compared exactly (no wildcard);
//  - no backslash: a browser reads `https:/\evil.test/cb` as https://evil.test/cb, other parsers do not;
//  - written in its canonical form, the one a browser would send (the WHATWG URL serialization, with
//    percent-encoding normalized as RFC 3986 §6.2.2.2 says): `https:rp.example/cb`, an upper-case host,
//    a default port such as `:443`, a dot segment or a needlessly encoded character each read as one
//    place to a browser and as another (or as nothing) to a library, and the message gives the form to
//    write instead. What is registered is therefore stored exactly as typed;
//  - no user or password part: `https://rp.example@evil.test/cb` reads as rp.example to a person but
//    its host is evil.test;
//  - no fragment (RFC 6749 §3.1.2);
//  - `https`; `http` only on a loopback host (`localhost`, `127.0.0.1`, `[::1]`, any port: RFC 8252
//    §7.3) and only for single-page and mobile apps, for development. A web application is a server
//    that keeps a secret: it is reached over https, never through a listener on the user's machine;
//  - for mobile apps only, a private-use scheme in reverse-domain form (`com.example.app:/callback`,
//    RFC 8252 §7.1), lower-case like every scheme in canonical form.

export type RedirectUriProblem =
  | 'redirect_uri.wildcard'
  | 'redirect_uri.backslash'
  | 'redirect_uri.not_absolute'
  | 'redirect_uri.userinfo'
  | 'redirect_uri.fragment'
  | 'redirect_uri.not_canonical'
  | 'redirect_uri.https_required'
  | 'redirect_uri.mobile_scheme';

/** Each rule in a sentence, for the CLI and the log; the pages translate the code themselves. */
export const REDIRECT_URI_RULES: Readonly<Record<RedirectUriProblem, string>> = {
  'redirect_uri.wildcard': 'must not contain a wildcard (*): every URI is matched exactly',
  'redirect_uri.backslash': 'must not contain a backslash (\\): a browser reads it as /, other libraries do not',
  'redirect_uri.not_absolute': 'is not an absolute URI',
  'redirect_uri.userinfo': 'must not contain a user name or password (user@host): the browser would go to the host after the @',
  'redirect_uri.fragment': 'must not contain a fragment (#)',
  'redirect_uri.not_canonical': 'is not written in its canonical form, which browsers and libraries would each read their own way',
  'redirect_uri.https_required':
    'must use https: http is accepted only on a loopback address (localhost, 127.0.0.1, [::1]) and only for spa and mobile applications, for development',
  'redirect_uri.mobile_scheme':
    'must use https, http on a loopback address, or a private-use scheme in reverse-domain form (com.example.app:/callback)',
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// Development on the developer's machine: a page or an app served from a local listener.
const LOOPBACK_HTTP_TYPES = new Set(['spa', 'mobile']);
// RFC 8252 §7.1: a private-use scheme in reverse-domain form, e.g. com.example.app
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;
// RFC 3986 §2.3: never needs percent-encoding, so an encoded one is written plain.
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The canonical form of `value` as a redirect URI: what a browser makes of it (the WHATWG URL
 * serialization: lower-case scheme and host, no default port, dot segments resolved, characters
 * encoded), with percent-encoding normalized (RFC 3986 §6.2.2.2: upper-case hex digits, unreserved
 * characters decoded) so that a library that normalizes reads the same string. Undefined when it does
 * not parse. The canonical form of a canonical form is itself.
 */
export function canonicalRedirectUri(value: string): string | undefined {
  const url = URL.parse(value.trim());
  if (!url) return undefined;
  return url.href.replace(/%([0-9A-Fa-f]{2})/g, (_encoded, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** What is wrong with `value` as a redirect URI of an application of type `appType`; undefined when it may be registered. */
export function redirectUriProblem(value: string, appType: string): RedirectUriProblem | undefined {
  // The registry stores each URI trimmed (registry.ts), so the rules judge it trimmed.
  const raw = value.trim();
  if (raw.includes('*')) return 'redirect_uri.wildcard';
  if (raw.includes('\\')) return 'redirect_uri.backslash';
  const url = URL.parse(raw);
  // A URL with a space or a control character is not the one the browser would be sent to.
  if (!url || /[\s\u0000-\u001f\u007f]/u.test(raw)) return 'redirect_uri.not_absolute';
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)) return 'redirect_uri.userinfo';
  if (raw.includes('#')) return 'redirect_uri.fragment';
  if (canonicalRedirectUri(raw) !== raw) return 'redirect_uri.not_canonical';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname ? undefined : 'redirect_uri.not_absolute';
  if (scheme === 'http') return LOOPBACK.has(url.hostname) && LOOPBACK_HTTP_TYPES.has(appType) ? undefined : 'redirect_uri.https_required';
  if (appType === 'mobile' && REVERSE_DOMAIN_SCHEME.test(scheme)) return undefined;
  return appType === 'mobile' ? 'redirect_uri.mobile_scheme' : 'redirect_uri.https_required';
}

export const isRedirectUriProblem = (code: string): code is RedirectUriProblem => Object.hasOwn(REDIRECT_URI_RULES, code);

/**
 * The rule `uri` breaks, in a sentence that follows the URI and ends with the rule's code: a
 * non-canonical URI comes with the form to write instead.
 */
export function describeRedirectUriProblem(uri: string, problem: RedirectUriProblem): string {
  const canonical = problem === 'redirect_uri.not_canonical' ? canonicalRedirectUri(uri) : undefined;
  return `${REDIRECT_URI_RULES[problem]}${canonical ? `: write it as ${canonical}` : ''} (${problem})`;
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
 * existed, e.g. a web application's http://localhost URI from before https was required of web
 * applications): it is refused at authorization until its owner replaces them. Applications of the
 * service itself are left out: their URI is the service's own address, whatever scheme the operator chose.
 */
export function invalidRedirectUriReport(
  clients: ReadonlyArray<{ clientId: string; appType: string; redirectUris: readonly string[]; firstParty?: boolean }>,
): string[] {
  return clients
    .filter((client) => !client.firstParty)
    .flatMap((client) =>
      invalidRedirectUris(client).map(
        ({ uri, problem }) =>
          `warning: ${client.clientId}: redirect URI ${uri} ${describeRedirectUriProblem(uri, problem)}; registered before the rule, sign-ins to this application are refused until it is replaced (signin client update ${client.clientId} --redirect-uri ...)`,
      ),
    );
}

// The engine's endpoints as the HTTP edge sees them: the methods each answers, whether its errors are
// JSON for a program (`api`) or a page for a browser (`browser`), and whether the caller must
// authenticate as a client. One table, read by the input guard, the 405 answers and the 401 answers.
import { ROUTES } from '../provider/paths.ts';

export type EndpointKind = 'api' | 'browser';

export interface ProtocolEndpoint {
  /** The engine's name for the route. */
  name: string;
  matches(path: string): boolean;
  /** Every method answered, HEAD with GET and OPTIONS for a CORS preflight included. */
  methods: readonly string[];
  kind: EndpointKind;
  /** An application authenticates with its secret (RFC 6749 §2.3.1), or as a public client with its client_id alone. */
  clientAuth?: true;
  /** The secret is required of every application, public ones included (introspection, RFC 7662 §2.1). */
  secretOnly?: true;
  /** Token, userinfo and introspection answers carry tokens or personal data: never cached (RFC 6749 §5.1). */
  noStore?: true;
}

const exact = (route: string) => (path: string) => path === route;

export const PROTOCOL_ENDPOINTS: readonly ProtocolEndpoint[] = [
  // POST is answered too (OpenID Connect Core §3.1.2.1), as a GET with the same parameters (input-guard.ts).
  { name: 'authorization', matches: exact(ROUTES.authorization), methods: ['GET', 'HEAD', 'POST'], kind: 'browser' },
  // The engine's return to the authorization after an interaction: /oauth/authorize/:uid.
  {
    name: 'resume',
    matches: (p) => p.startsWith(`${ROUTES.authorization}/`) && !p.slice(ROUTES.authorization.length + 1).includes('/'),
    methods: ['GET', 'HEAD'],
    kind: 'browser',
  },
  { name: 'token', matches: exact(ROUTES.token), methods: ['POST', 'OPTIONS'], kind: 'api', clientAuth: true, noStore: true },
  { name: 'userinfo', matches: exact(ROUTES.userinfo), methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], kind: 'api', noStore: true },
  { name: 'revocation', matches: exact(ROUTES.revocation), methods: ['POST', 'OPTIONS'], kind: 'api', clientAuth: true },
  {
    name: 'introspection',
    matches: exact(ROUTES.introspection),
    methods: ['POST', 'OPTIONS'],
    kind: 'api',
    clientAuth: true,
    secretOnly: true,
    noStore: true,
  },
  {
    name: 'pushed_authorization_request',
    matches: exact(ROUTES.pushed_authorization_request),
    methods: ['POST', 'OPTIONS'],
    kind: 'api',
    clientAuth: true,
  },
  { name: 'jwks', matches: exact(ROUTES.jwks), methods: ['GET', 'HEAD', 'OPTIONS'], kind: 'api' },
  { name: 'end_session', matches: exact(ROUTES.end_session), methods: ['GET', 'HEAD'], kind: 'browser' },
  { name: 'end_session_confirm', matches: exact(`${ROUTES.end_session}/confirm`), methods: ['POST'], kind: 'browser' },
  { name: 'end_session_success', matches: exact(`${ROUTES.end_session}/success`), methods: ['GET', 'HEAD'], kind: 'browser' },
  {
    name: 'discovery',
    matches: (p) => p === '/.well-known/openid-configuration' || p === '/.well-known/oauth-authorization-server',
    methods: ['GET', 'HEAD', 'OPTIONS'],
    kind: 'api',
  },
];

// Each layer of the edge asks in turn for the endpoint of the request it handles, with the same path: the
// last answer is kept with its path, so one request's layers search the table once.
let lastPath: string | undefined;
let lastEndpoint: ProtocolEndpoint | undefined;

/** The engine endpoint at `path`, if any. */
export function protocolEndpoint(path: string): ProtocolEndpoint | undefined {
  if (path !== lastPath) {
    lastEndpoint = PROTOCOL_ENDPOINTS.find((endpoint) => endpoint.matches(path));
    lastPath = path;
  }
  return lastEndpoint;
}

/** Whether `path` belongs to the engine (everything under /oauth/ and /.well-known/). */
export const isEnginePath = (path: string): boolean => path.startsWith('/oauth/') || path.startsWith('/.well-known/');

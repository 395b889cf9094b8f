// The text of the config file `signin init` writes. It is written by hand rather than by the YAML
// library so that each section carries a comment saying what it is for. The defaults it shows are the
// schema's (src/config/schema.ts): test/config/defaults.test.ts fails when the two part.
export interface TemplateValues {
  issuer: string;
  port: number;
  cookieKey: string;
  pairwiseSalt: string;
  keyEncryptionKey: string;
  /** A JWKS file for the signing keys; absent: they live in the database. */
  keysFile?: string;
}

/** The embedded store's folder in the file written. */
export const EMBEDDED_DATA_DIR = './data';

// JSON strings are valid double-quoted YAML scalars, so any value is written safely.
const q = (value: string): string => JSON.stringify(value);

export function configTemplate(v: TemplateValues): string {
  const keys = v.keysFile ? `keys:\n  source: file\n  file: ${q(v.keysFile)}` : 'keys:\n  source: database';
  // `signin keys rotate` publishes a key at once, which signs only after this delay.
  const rotation = '  rotationDelaySeconds: 86400   # one day: applications that cache the JWKS see it first';
  return `# Sign-in service configuration, written by \`signin init\`.
# Any string may read an environment variable: \${NAME}, or \${NAME:-fallback}.
# Relative paths are taken from the directory the service is started in.
# Unknown keys are refused, so a typo stops the service instead of being ignored.

# Public URL of the service, without a trailing slash. Discovery, redirects and the "iss" of every
# token start with it. Use https in production.
issuer: ${q(v.issuer)}

# TCP port of the standalone server.
port: ${v.port}

# true refuses a plain-http issuer and the public development secrets.
production: false

# Behind a reverse proxy that sets X-Forwarded-*, set to true.
trustProxy: false

# Secrets of this installation, generated at random. Keep this file private, or move the values to
# environment variables (\${NAME}).
secrets:
  # Keys that sign the cookies, newest first, at least 32 characters each. To rotate one, add the new
  # key at the top and drop the old one once the sessions it signed have expired.
  cookieKeys:
    - ${q(v.cookieKey)}
  # Salt of the per-application user identifiers (pairwise "sub"). Changing it changes every sub the
  # applications have stored: set it once and keep it.
  pairwiseSalt: ${q(v.pairwiseSalt)}
  # Encrypts the private signing keys kept in the database, so a dump of it cannot sign ID tokens.
  # Every instance needs the same value. Losing it loses the keys (new ones must then be generated,
  # which invalidates the ID tokens in circulation): back it up apart from the database.
  keyEncryptionKey: ${q(v.keyEncryptionKey)}

# Where accounts, applications, grants and tokens live.
#   embedded: a local data folder (PGlite), no database server; for a laptop or one small instance.
#   postgres: a shared database, for production and for several instances:
#     storage:
#       kind: postgres
#       postgres:
#         url: \${DATABASE_URL}
#   Either kind may keep sessions, codes and access tokens in Redis (faster for those short-lived
#   items) by adding:
#       redis:
#         url: \${REDIS_URL}
#   or, on a Redis Cluster, its nodes instead of url: cluster: ["host1:6379", "host2:6379"]
storage:
  kind: embedded
  dataDir: ${q(EMBEDDED_DATA_DIR)}

# Keys that sign ID tokens. Regenerating them would invalidate every ID token in circulation.
#   database: generated at first start and kept in the database, shared by every instance.
#   file: a JWKS file of private keys; keep it private and backed up.
# Rotate them with \`signin keys rotate\`, then \`signin keys retire KID\` (see \`signin keys --help\`).
${keys}
${rotation}

# Optional sections, shown with their defaults:
# ttl:                          # in seconds
#   accessToken: 3600
#   authorizationCode: 60
#   idToken: 3600
#   refreshToken: 2592000       # 30 days
#   session: 1209600            # 14 days without use
#   interaction: 3600
#   refreshTokenReuseGrace: 30  # a rotated refresh token still works this long (parallel refreshes)
#   refreshTokenAbsolute: 7776000  # 90 days: a refresh-token chain ends then after its sign-in, however used
#   sessionAbsolute: 2592000    # 30 days: a browser session ends then after its sign-in, however used
# languages:
#   default: fr
#   supported: [fr, en]
# portal:
#   path: /portal
# branding:                     # on every page and e-mail (docs/operations/deploy.md)
#   serviceName: Mairie de Bouaké · Connexion   # unset: "Service de connexion" / "Sign-in service"
#   logo: ./branding/logo.svg   # PNG, JPEG, WebP, GIF or SVG, 256 KB at most, served by the service
#   links: []                   # e.g. [{ label: { fr: Mentions légales, en: Legal notice }, url: https://... }]
# shutdown:                     # on SIGTERM: /readyz answers 503 this long before the server stops
#   drainSeconds: 10            # unset: 10 with production: true, else 0
# metrics:                      # Prometheus /metrics, off unless one is set (docs/operations/metrics-and-logs.md)
#   port: 9464                  # a listener of its own; or, on the service's port:
#   bearerToken: \${SIGNIN_METRICS_TOKEN_VALUE}
# rateLimit:                    # failed attempts allowed per window of seconds
#   clientAuthPerClient: { points: 10, windowSeconds: 900 }   # wrong client secrets per application and IP
#   clientAuthPerIp: { points: 50, windowSeconds: 900 }       # wrong client secrets per IP
# log:                          # one JSON line per security event, on stdout
#   level: info                 # fatal, error, warn, info, debug, trace or silent
#   pretty: false               # true: readable text lines; unset: readable unless production is true
`;
}

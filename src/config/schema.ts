// The provider config file, as a schema. The engine silently ignores keys it does not know, so
// our own file is checked strictly: an unknown key or a bad value stops the server and names the field.
// Its defaults are the only ones: the file `signin init` writes, examples/server/signin.yaml and
// docs/reference/configuration.md repeat them for the reader, and test/config/defaults.test.ts checks
// that they agree. Each key's `.describe()` text is its line in docs/reference/configuration.md
// (`npm run docs:reference` writes it; test/docs/reference.test.ts fails when the page is behind).
import { z } from 'zod';
import { passkeysSchema } from './passkeys-schema.ts';
import { phoneSchema } from './phone-schema.ts';
import { fedcmSchema } from './fedcm-schema.ts';

const seconds = z.number().int().positive();

/** Paths of the service itself, which the portal must not take over. */
const RESERVED_PATHS = [
  '/oauth',
  '/interaction',
  '/.well-known',
  '/account',
  '/email',
  '/password',
  '/lang',
  '/static',
  '/healthz',
  '/readyz',
];
const locale = z.enum(['fr', 'en']);

const postgres = z
  .strictObject({
    url: z.string().min(1).describe('Connection URL, e.g. `postgres://user:password@host:5432/signin`.'),
    pool: z
      .strictObject({
        max: z.number().int().min(1).default(10).describe('Most connections open at once, per instance.'),
        connectionTimeoutMs: z
          .number()
          .int()
          .min(100)
          .default(3000)
          .describe('Opening a connection slower than this fails, in milliseconds.'),
        idleTimeoutMs: z
          .number()
          .int()
          .min(0)
          .default(30000)
          .describe('An idle connection is closed after this long, in milliseconds (0: never).'),
        statementTimeoutMs: z
          .number()
          .int()
          .min(100)
          .default(5000)
          .describe('A statement running longer than this is cancelled, in milliseconds.'),
      })
      .prefault({})
      .describe('The connection pool: its size and timeouts.'),
  })
  .describe('The Postgres database; required with `storage.kind: postgres`.');

const redis = z
  .strictObject({
    url: z.string().min(1).optional().describe('One Redis server, e.g. `redis://:password@host:6379/0`.'),
    cluster: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        'Instead of `url`: seed nodes of a Redis Cluster (`host:port` or `redis://` URLs; a few are enough, the others are discovered).',
      ),
    keyPrefix: z.string().min(1).default('signin:').describe('Prefix of every Redis key.'),
    commandTimeoutMs: z.number().int().min(100).default(2000).describe('A Redis command slower than this fails, in milliseconds.'),
  })
  .refine((r) => (r.url === undefined) !== (r.cluster === undefined), {
    message: 'storage.redis needs exactly one of `url` (one server) and `cluster` (a list of nodes)',
  })
  .describe('Sessions, interactions, codes, access tokens and rate-limit counters in Redis; exactly one of `url` and `cluster`.');

const requestDeadlineMs = z
  .number()
  .int()
  .min(100)
  .default(5000)
  .describe(
    'The time one request may spend waiting for its stores, all its calls together, in milliseconds: past it the request answers 503 (or the outage page).',
  );

const storage = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('embedded').describe('a local data folder (PGlite in `dataDir`), no database server: one process on one machine'),
      dataDir: z.string().min(1).default('./data').describe('Folder of the embedded store; only with `kind: embedded`.'),
      redis: redis.optional(),
      requestDeadlineMs,
    }),
    z.strictObject({
      kind: z.literal('postgres').describe('a shared Postgres database (`postgres.url`), for production and for several instances'),
      postgres,
      redis: redis.optional(),
      requestDeadlineMs,
    }),
  ])
  .describe('Where accounts, applications, grants and tokens live.');

const mail = z
  .strictObject({
    from: z
      .string()
      .min(3)
      .default('Service de connexion <no-reply@localhost>')
      .describe('The From header of every e-mail, e.g. `Service de connexion <no-reply@example.org>`.'),
    smtp: z
      .strictObject({
        host: z.string().min(1).describe('Host name of the SMTP server.'),
        port: z.number().int().min(1).max(65535).default(587).describe('Port of the SMTP server.'),
        secure: z
          .boolean()
          .default(false)
          .describe('`true`: TLS from the first byte (port 465); `false`: STARTTLS when the server offers it.'),
        user: z.string().optional().describe('User name, when the server asks for one.'),
        pass: z.string().optional().describe('Password of that user.'),
      })
      .optional()
      .describe('Send the e-mails over SMTP; required in production.'),
    outbox: z
      .string()
      .min(1)
      .optional()
      .describe('Without `mail.smtp` (development): each message is written to this folder and its link printed on the console.'),
    verifyLinkTtl: seconds.default(24 * 3600).describe('Lifetime of an e-mail verification link, in seconds.'),
    resetLinkTtl: seconds
      .max(24 * 3600)
      .default(3600)
      .describe('Lifetime of a password-reset link, in seconds.'),
  })
  .refine((m) => !(m.smtp && m.outbox), { message: 'set either mail.smtp or mail.outbox, not both', path: ['outbox'] })
  .transform((m) => (m.smtp || m.outbox ? m : { ...m, outbox: './data/outbox' }))
  .prefault({})
  .describe('Outgoing e-mail (verification and password-reset links): SMTP, or files in a folder for development.');

const attempts = (points: number, seconds: number) =>
  z
    .strictObject({
      points: z.number().int().min(1).default(points).describe('How many are allowed within the window.'),
      windowSeconds: z.number().int().min(1).default(seconds).describe('Length of the window, in seconds.'),
    })
    .prefault({});

const rateLimit = z
  .strictObject({
    loginPerAccount: attempts(5, 15 * 60).describe('Failed sign-ins per account (e-mail address, registered or not).'),
    loginPerIp: attempts(30, 15 * 60).describe('Failed sign-ins per client IP (X-Forwarded-For is used only when `trustProxy` is set).'),
    mailPerIp: attempts(10, 3600).describe('E-mails (sign-up, reset) sent per client IP.'),
    mailPerAddress: attempts(3, 3600).describe('E-mails sent per address.'),
    // Counted per IP too, so that nobody elsewhere can lock the application out.
    clientAuthPerClient: attempts(10, 15 * 60).describe(
      'Failed client authentications (token, revocation, introspection, PAR) per application and client IP: past it, that application is refused from that IP only.',
    ),
    clientAuthPerIp: attempts(50, 15 * 60).describe(
      'Failed client authentications per client IP, whatever the application: stops a sweep of client ids.',
    ),
  })
  .prefault({})
  .describe('Brute-force and abuse limits. Counters live in Redis when configured, else in SQL: every instance shares them.');

const log = z
  .strictObject({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('Lowest level written.'),
    pretty: z
      .boolean()
      .optional()
      .describe('`true`: readable text lines; `false`: one JSON object per line. Unset: readable unless `production` is true.'),
  })
  .prefault({})
  .describe('The log: one JSON line per security event and unexpected error, on stdout.');

/** A label in the service's languages: one text for all, or one per language (`{ fr: ..., en: ... }`). */
const label = z.union([z.string().min(1).max(80), z.strictObject({ fr: z.string().min(1).max(80), en: z.string().min(1).max(80) })]);

const branding = z
  .strictObject({
    serviceName: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .optional()
      .describe(
        'The name every page and e-mail shows. Unset: the pages\' own name in each language ("Service de connexion", "Sign-in service").',
      ),
    logo: z
      .string()
      .min(1)
      .regex(/\.(png|jpe?g|webp|gif|svg)$/i, 'must be a .png, .jpg, .webp, .gif or .svg file')
      .optional()
      .describe(
        'A local image file (PNG, JPEG, WebP, GIF or SVG, 256 KB at most) shown beside the name, read at start and served by the service.',
      ),
    links: z
      .array(z.strictObject({ label, url: z.url({ protocol: /^(https?|mailto)$/ }) }))
      .max(6)
      .default([])
      .describe(
        'Links at the foot of every page and e-mail (legal notice, accessibility statement, contact): `{ label, url }`, the label one text or `{ fr, en }`, the URL https or `mailto:`.',
      ),
  })
  .prefault({})
  .describe('What a deployment shows on every page and in every e-mail: its name, its logo, and the links it must show.');

export const configSchema = z.strictObject({
  issuer: z
    .url({ protocol: /^https?$/ })
    .refine((u) => !u.endsWith('/'), 'must not end with a slash')
    .refine((u) => !URL.parse(u)?.username && !URL.parse(u)?.password, 'must not contain a user name or password')
    .refine((u) => !URL.parse(u)?.search && !u.includes('#'), 'must not have a query or a fragment')
    .describe(
      'Public URL of the service (http or https; https in production), without a trailing slash, user name, query or fragment: every URL it hands out starts with it.',
    ),
  port: z
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(3000)
    .describe('TCP port of the standalone server; `signin serve --port N` and the `PORT` variable override it.'),
  production: z
    .boolean()
    .default(false)
    .describe(
      'Refuses the development secrets, a plain-http issuer, the mail outbox and, with `keys.source: database`, a missing `secrets.keyEncryptionKey`.',
    ),
  trustProxy: z
    .union([z.boolean(), z.number().int().min(1).max(10)])
    .default(false)
    .describe(
      "Reverse proxies in front that append to X-Forwarded-For: `false` (none: the socket's address is the client's), `true` (one), or their number. Only the entries they appended are believed.",
    ),
  // Off by default: browsers would then refuse plain http on every subdomain of the issuer's host for a
  // year, which only the operator of the whole domain can promise.
  https: z
    .strictObject({
      hstsIncludeSubDomains: z
        .boolean()
        .default(false)
        .describe(
          "Adds `includeSubDomains` to `Strict-Transport-Security`: for a year, browsers refuse plain http on every subdomain of the issuer's host too. Only when every one of them is served over https.",
        ),
    })
    .prefault({})
    .describe('What an https issuer tells browsers (`Strict-Transport-Security: max-age=31536000`, with an https issuer only).'),
  secrets: z
    .strictObject({
      cookieKeys: z
        .array(z.string().min(32, 'must be at least 32 characters'))
        .min(1)
        .describe('Signing keys of the cookies, newest first.'),
      pairwiseSalt: z
        .string()
        .min(32, 'must be at least 32 characters')
        .describe('Secret salt of the per-application pairwise `sub`. Changing it changes every `sub`.'),
      // So that a dump of the database cannot mint ID tokens.
      keyEncryptionKey: z
        .string()
        .min(32, 'must be at least 32 characters')
        .optional()
        .describe(
          'Encrypts the private signing keys kept in the database (AES-256-GCM, key derived with HKDF); the same on every instance. Required in production with `keys.source: database`.',
        ),
    })
    .describe('Secrets of the installation, the same on every instance. `${NAME}` keeps them out of the file.'),
  storage: storage.prefault({ kind: 'embedded' }),
  keys: z
    .strictObject({
      source: z
        .enum(['database', 'file'])
        .default('database')
        .describe('Where the signing keys live: in the database (shared by every instance) or in a JWKS file (`keys.file`).'),
      file: z.string().optional().describe('The JWKS file of private keys; required with `source: file`, refused otherwise.'),
      algorithms: z
        .array(z.enum(['RS256', 'ES256', 'EdDSA']))
        .default(['RS256', 'ES256'])
        .describe('Algorithms of the signing keys generated on first start; RS256 is always one of them.'),
      // Some relying parties cache the JWKS for a day.
      rotationDelaySeconds: z
        .number()
        .int()
        .min(0)
        .default(24 * 3600)
        .describe(
          'A key added by `signin keys rotate` is published at once but signs only this long after, so that applications caching the JWKS know it first.',
        ),
    })
    .refine((k) => k.source !== 'file' || !!k.file, { message: 'keys.file is required when keys.source is "file"', path: ['file'] })
    // A file named but not used would let an operator believe the keys come from it.
    .refine((k) => k.source === 'file' || !k.file, { message: 'keys.file is read only with keys.source: file', path: ['file'] })
    .prefault({})
    .describe('The keys that sign ID tokens. Regenerating them would invalidate every ID token in circulation.'),
  ttl: z
    .strictObject({
      accessToken: seconds.default(3600).describe('Lifetime of an access token.'),
      authorizationCode: seconds.max(600).default(60).describe('Lifetime of an authorization code.'),
      idToken: seconds.default(3600).describe('Lifetime of an ID token.'),
      refreshToken: seconds.default(30 * 24 * 3600).describe('Lifetime of a refresh token (30 days).'),
      session: seconds
        .default(14 * 24 * 3600)
        .describe('A session lives this long without use (14 days); each use extends it, up to `ttl.sessionAbsolute`.'),
      interaction: seconds.default(3600).describe('Lifetime of a sign-in in progress.'),
      refreshTokenReuseGrace: z
        .number()
        .int()
        .min(0)
        .max(300)
        .default(30)
        .describe('A rotated refresh token still works this long, for apps that refresh in parallel.'),
      // A stolen token cannot be kept alive forever. 90 days: a quarterly sign-in for an app in daily
      // use, as long-lived mobile apps commonly ask.
      refreshTokenAbsolute: seconds
        .default(90 * 24 * 3600)
        .describe(
          'A chain of refresh tokens ends this long after the sign-in that started it, however often it is used (90 days); at least `ttl.refreshToken`.',
        ),
      sessionAbsolute: seconds
        .default(30 * 24 * 3600)
        .describe('A browser session ends this long after sign-in, whatever its activity (30 days); at least `ttl.session`.'),
    })
    // An absolute lifetime below the idle one would make the idle one meaningless: surely a slip.
    .refine((t) => t.refreshTokenAbsolute >= t.refreshToken, {
      message: 'must be at least ttl.refreshToken',
      path: ['refreshTokenAbsolute'],
    })
    .refine((t) => t.sessionAbsolute >= t.session, { message: 'must be at least ttl.session', path: ['sessionAbsolute'] })
    .prefault({})
    .describe('Lifetimes, in seconds.'),
  languages: z
    .strictObject({
      default: locale
        .default('fr')
        .describe('Page language when nothing else decides (`ui_locales`, the language switch, Accept-Language); one of `supported`.'),
      supported: z.array(locale).min(1).default(['fr', 'en']).describe('Languages offered.'),
    })
    .refine((l) => l.supported.includes(l.default), { message: 'the default language must be in languages.supported', path: ['default'] })
    .prefault({})
    .describe('Languages of the pages and e-mails.'),
  portal: z
    .strictObject({
      path: z
        .string()
        .regex(/^(\/[a-z0-9_-]+)+$/i, 'must be a path such as /portal, without a trailing slash')
        // The portal answers everything under its path: it must not hide the service's own routes.
        .refine((p) => !RESERVED_PATHS.some((r) => p === r || p.startsWith(`${r}/`) || r.startsWith(`${p}/`)), {
          message: `must not be or contain one of the service's own paths (${RESERVED_PATHS.join(', ')})`,
        })
        .default('/portal')
        .describe(
          `Where the developer portal is served, without a trailing slash; not one of the service's own paths (${RESERVED_PATHS.map((p) => `\`${p}\``).join(', ')}) nor above one.`,
        ),
    })
    .prefault({})
    .describe('The developer portal, where users register their applications.'),
  mail,
  notices: z
    .strictObject({
      newDeviceSignIn: z
        .boolean()
        .default(false)
        .describe(
          "`true`: a sign-in from a device the account has never signed in from (told apart by browser and system, read from the User-Agent) e-mails the account's owner, with a link to the account page's list of devices.",
        ),
    })
    .prefault({})
    .describe('E-mails the service sends on its own about an account, beside those that follow a change the owner made.'),
  rateLimit,
  phone: phoneSchema,
  passkeys: passkeysSchema,
  fedcm: fedcmSchema,
  log,
  branding,
  // Ten seconds in production: a few health-check periods. None otherwise: Ctrl-C on a laptop stops at once.
  shutdown: z
    .strictObject({
      drainSeconds: z
        .number()
        .int()
        .min(0)
        .max(600)
        .optional()
        .describe(
          'On SIGTERM or SIGINT, `/readyz` answers 503 this long while requests are still served, then the server stops. Unset: 10 in production, 0 otherwise.',
        ),
    })
    .prefault({})
    .describe('Graceful stop of the standalone server, so that a load balancer takes it out of rotation before it stops listening.'),
  metrics: z
    .strictObject({
      port: z
        .number()
        .int()
        .min(1)
        .max(65535)
        .optional()
        .describe("A listener of their own for `/metrics`, which the network keeps private; the service's port then has no `/metrics`."),
      bearerToken: z
        .string()
        .min(32, 'must be 32 characters or more')
        .optional()
        .describe("Without `port`: `/metrics` on the service's port, for callers presenting `Authorization: Bearer <token>` only."),
    })
    .prefault({})
    .describe('Prometheus metrics at `/metrics`, off unless `port` or `bearerToken` is set.'),
});

export type SignInConfig = z.output<typeof configSchema>;
export type SignInConfigInput = z.input<typeof configSchema>;

/** The port of a config file that names none, for the CLI's `init` and its help. */
export const DEFAULT_PORT: number = configSchema.shape.port.parse(undefined);

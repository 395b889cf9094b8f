// The provider config file, as a schema. The engine silently ignores keys it does not know, so
// our own file is checked strictly: an unknown key or a bad value stops the server and names the field.
// Its defaults are the only ones: the file `signin init` writes, examples/server/signin.yaml and the
// README's table repeat them for the reader, and test/config/defaults.test.ts checks that they agree.
import { z } from 'zod';

const seconds = z.number().int().positive();

/** Paths of the service itself, which the portal must not take over. */
const RESERVED_PATHS = ['/oauth', '/interaction', '/.well-known', '/account', '/email', '/password', '/lang', '/static', '/healthz', '/readyz'];
const locale = z.enum(['fr', 'en']);

const postgres = z.strictObject({
  url: z.string().min(1),
  pool: z
    .strictObject({
      max: z.number().int().min(1).default(10),
      connectionTimeoutMs: z.number().int().min(100).default(3000),
      idleTimeoutMs: z.number().int().min(0).default(30000),
      statementTimeoutMs: z.number().int().min(100).default(5000),
    })
    .prefault({}),
});

const redis = z
  .strictObject({
    url: z.string().min(1).optional(),
    /** Redis Cluster seed nodes (`host:port` or URLs), instead of `url`. */
    cluster: z.array(z.string().min(1)).min(1).optional(),
    keyPrefix: z.string().min(1).default('signin:'),
    commandTimeoutMs: z.number().int().min(100).default(2000),
  })
  .refine((r) => (r.url === undefined) !== (r.cluster === undefined), {
    message: 'storage.redis needs exactly one of `url` (one server) and `cluster` (a list of nodes)',
  });

const storage = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('embedded'), dataDir: z.string().min(1).default('./data'), redis: redis.optional() }),
  z.strictObject({ kind: z.literal('postgres'), postgres, redis: redis.optional() }),
]);

/** Outgoing e-mail (verification and password-reset links): SMTP, or files in a folder for development. */
const mail = z
  .strictObject({
    /** The From header, e.g. `Service de connexion <no-reply@example.org>`. */
    from: z.string().min(3).default('Service de connexion <no-reply@localhost>'),
    smtp: z
      .strictObject({
        host: z.string().min(1),
        port: z.number().int().min(1).max(65535).default(587),
        /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
        secure: z.boolean().default(false),
        user: z.string().optional(),
        pass: z.string().optional(),
      })
      .optional(),
    /** Development: each message is written to this folder and its link printed on the console. */
    outbox: z.string().min(1).optional(),
    /** Lifetime of an e-mail verification link, and of a password-reset link. */
    verifyLinkTtl: seconds.default(24 * 3600),
    resetLinkTtl: seconds.max(24 * 3600).default(3600),
  })
  .refine((m) => !(m.smtp && m.outbox), { message: 'set either mail.smtp or mail.outbox, not both', path: ['outbox'] })
  .transform((m) => (m.smtp || m.outbox ? m : { ...m, outbox: './data/outbox' }))
  .prefault({});

const attempts = (points: number, seconds: number) =>
  z.strictObject({ points: z.number().int().min(1).default(points), windowSeconds: z.number().int().min(1).default(seconds) }).prefault({});

/** Brute-force and abuse limits. Counters live in Redis when configured, else in SQL: every instance shares them. */
const rateLimit = z
  .strictObject({
    /** Failed sign-ins per account (e-mail address, registered or not). */
    loginPerAccount: attempts(5, 15 * 60),
    /** Failed sign-ins per client IP (X-Forwarded-For is used only when trustProxy is true). */
    loginPerIp: attempts(30, 15 * 60),
    /** E-mails (sign-up, reset) sent per client IP. */
    mailPerIp: attempts(10, 3600),
    /** E-mails sent per address. */
    mailPerAddress: attempts(3, 3600),
    /**
     * Failed client authentications (token, revocation, introspection) per application and client IP:
     * past it, that application is refused from that IP only, so nobody elsewhere can lock it out.
     */
    clientAuthPerClient: attempts(10, 15 * 60),
    /** Failed client authentications per client IP, whatever the application: stops a sweep of client ids. */
    clientAuthPerIp: attempts(50, 15 * 60),
  })
  .prefault({});

/** The log: one JSON line per security event and unexpected error, on stdout. */
const log = z
  .strictObject({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Readable text lines instead of JSON; unset, they are readable unless `production` is true. */
    pretty: z.boolean().optional(),
  })
  .prefault({});

/** A label in the service's languages: one text for all, or one per language (`{ fr: ..., en: ... }`). */
const label = z.union([z.string().min(1).max(80), z.strictObject({ fr: z.string().min(1).max(80), en: z.string().min(1).max(80) })]);

/**
 * What a deployment shows on every page and in every e-mail: its name, its logo, and the links it must
 * show (legal notice, accessibility statement, contact).
 */
const branding = z
  .strictObject({
    /** Unset: the pages' own name in each language ("Service de connexion", "Sign-in service"). */
    serviceName: z.string().trim().min(1).max(60).optional(),
    /** A local image file (PNG, JPEG, WebP, GIF or SVG, 256 KB at most), read at start and served by the service. */
    logo: z.string().min(1).regex(/\.(png|jpe?g|webp|gif|svg)$/i, 'must be a .png, .jpg, .webp, .gif or .svg file').optional(),
    /** Links shown at the foot of every page and e-mail: `{ label, url }`, https (or mailto:) URLs. */
    links: z
      .array(z.strictObject({ label, url: z.url({ protocol: /^(https?|mailto)$/ }) }))
      .max(6)
      .default([]),
  })
  .prefault({});

export const configSchema = z.strictObject({
  /** Public URL of the service; every URL it hands out starts with it. */
  issuer: z
    .url({ protocol: /^https?$/ })
    .refine((u) => !u.endsWith('/'), 'must not end with a slash')
    .refine((u) => !URL.parse(u)?.username && !URL.parse(u)?.password, 'must not contain a user name or password')
    .refine((u) => !URL.parse(u)?.search && !u.includes('#'), 'must not have a query or a fragment'),
  /** TCP port of the standalone server. */
  port: z.number().int().min(0).max(65535).default(3000),
  /** Production refuses the development secrets and a plain-http issuer. */
  production: z.boolean().default(false),
  /**
   * Reverse proxies in front that append to X-Forwarded-For: `false` (none: the socket's address is the
   * client's), `true` (one), or their number. Only the entries they appended are believed.
   */
  trustProxy: z.union([z.boolean(), z.number().int().min(1).max(10)]).default(false),
  secrets: z.strictObject({
    /** Signing keys of the cookies, newest first; each at least 32 characters. */
    cookieKeys: z.array(z.string().min(32, 'must be at least 32 characters')).min(1),
    /** Secret salt of the per-client pairwise subject identifiers. Changing it changes every sub. */
    pairwiseSalt: z.string().min(32, 'must be at least 32 characters'),
    /**
     * Encrypts the private signing keys kept in the database (AES-256-GCM, key derived with HKDF), so a
     * dump of the database cannot mint ID tokens. Required in production with `keys.source: database`.
     */
    keyEncryptionKey: z.string().min(32, 'must be at least 32 characters').optional(),
  }),
  storage: storage.prefault({ kind: 'embedded' }),
  keys: z
    .strictObject({
      /** Where the signing keys live: in the database (shared by every instance) or in a JWKS file. */
      source: z.enum(['database', 'file']).default('database'),
      file: z.string().optional(),
      /** Algorithms of the signing keys generated on first start; RS256 is always one of them. */
      algorithms: z.array(z.enum(['RS256', 'ES256', 'EdDSA'])).default(['RS256', 'ES256']),
      /**
       * A key added by `signin keys rotate` is published at once but signs only this long after, so that
       * relying parties that cache the JWKS (some for a day) know it before the first token it signs.
       */
      rotationDelaySeconds: z.number().int().min(0).default(24 * 3600),
    })
    .refine((k) => k.source !== 'file' || !!k.file, { message: 'keys.file is required when keys.source is "file"', path: ['file'] })
    // A file named but not used would let an operator believe the keys come from it.
    .refine((k) => k.source === 'file' || !k.file, { message: 'keys.file is read only with keys.source: file', path: ['file'] })
    .prefault({}),
  ttl: z
    .strictObject({
      accessToken: seconds.default(3600),
      authorizationCode: seconds.max(600).default(60),
      idToken: seconds.default(3600),
      refreshToken: seconds.default(30 * 24 * 3600),
      /** A session lives this long without use (each use extends it, up to sessionAbsolute). */
      session: seconds.default(14 * 24 * 3600),
      interaction: seconds.default(3600),
      /** A rotated refresh token still works this long, for apps that refresh in parallel. */
      refreshTokenReuseGrace: z.number().int().min(0).max(300).default(30),
      /**
       * A chain of refresh tokens ends this long after the sign-in that started it, however often it is
       * used: a stolen token cannot be kept alive forever. 90 days: a quarterly sign-in for an app in
       * daily use, as long-lived mobile apps commonly ask.
       */
      refreshTokenAbsolute: seconds.default(90 * 24 * 3600),
      /** A browser session ends this long after sign-in, whatever its activity (30 days). */
      sessionAbsolute: seconds.default(30 * 24 * 3600),
    })
    // An absolute lifetime below the idle one would make the idle one meaningless: surely a slip.
    .refine((t) => t.refreshTokenAbsolute >= t.refreshToken, {
      message: 'must be at least ttl.refreshToken',
      path: ['refreshTokenAbsolute'],
    })
    .refine((t) => t.sessionAbsolute >= t.session, { message: 'must be at least ttl.session', path: ['sessionAbsolute'] })
    .prefault({}),
  languages: z
    .strictObject({
      default: locale.default('fr'),
      supported: z.array(locale).min(1).default(['fr', 'en']),
    })
    .refine((l) => l.supported.includes(l.default), { message: 'the default language must be in languages.supported', path: ['default'] })
    .prefault({}),
  portal: z
    .strictObject({
      path: z
        .string()
        .regex(/^(\/[a-z0-9_-]+)+$/i, 'must be a path such as /portal, without a trailing slash')
        // The portal answers everything under its path: it must not hide the service's own routes.
        .refine((p) => !RESERVED_PATHS.some((r) => p === r || p.startsWith(`${r}/`) || r.startsWith(`${p}/`)), {
          message: `must not be or contain one of the service's own paths (${RESERVED_PATHS.join(', ')})`,
        })
        .default('/portal'),
    })
    .prefault({}),
  mail,
  rateLimit,
  log,
  branding,
  /**
   * On SIGTERM or SIGINT the standalone server answers 503 on /readyz for `drainSeconds`, still serving
   * requests, so that a load balancer takes it out of rotation before it stops listening. Unset: 10 s in
   * production (a few health-check periods), 0 otherwise (Ctrl-C on a laptop stops at once).
   */
  shutdown: z.strictObject({ drainSeconds: z.number().int().min(0).max(600).optional() }).prefault({}),
  /**
   * Prometheus metrics at /metrics, off unless one of these is set: a listener of their own (`port`,
   * which the network keeps private), or the service's port for callers presenting `bearerToken`.
   */
  metrics: z
    .strictObject({
      port: z.number().int().min(1).max(65535).optional(),
      bearerToken: z.string().min(32, 'must be 32 characters or more').optional(),
    })
    .prefault({}),
});

export type SignInConfig = z.output<typeof configSchema>;
export type SignInConfigInput = z.input<typeof configSchema>;

/** The port of a config file that names none, for the CLI's `init` and its help. */
export const DEFAULT_PORT: number = configSchema.shape.port.parse(undefined);

// compose.yaml against the Dockerfile and the service: its config file loads in production with the
// environment compose passes on, where the image reads it; the migration runs before the server; Redis
// keeps its data as docs/operations/postgres-and-redis.md recommends; the server gets the time to drain.
// No registry is reachable here to pull Postgres and Redis, so compose itself is not run
// (image.test.ts runs the image on the machine's own Postgres and Redis).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load.ts';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}

const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as { services: Record<string, Service> };
const dockerfile = readFileSync('Dockerfile', 'utf8');
const { migrate, signin, redis } = compose.services;

/** What compose does to `${NAME:?message}` and `$$` in a value, with `given` as the environment. */
function interpolate(value: string, given: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::[?-][^}]*)?\}/g, (match, name?: string) => {
    if (!name) return '$';
    const found = given[name];
    if (found === undefined) throw new Error(`compose.yaml reads ${name}, which the test does not give`);
    return found;
  });
}

const secret = (letter: string) => letter.repeat(43);
const operatorEnv: Record<string, string> = {
  SIGNIN_ISSUER: 'https://id.example.org',
  POSTGRES_PASSWORD: 'pg-password',
  REDIS_PASSWORD: 'redis-password',
  SIGNIN_COOKIE_KEY: secret('c'),
  SIGNIN_PAIRWISE_SALT: secret('p'),
  SIGNIN_KEY_ENCRYPTION_KEY: secret('k'),
  MAIL_FROM: 'Connexion <no-reply@example.org>',
  SMTP_HOST: 'smtp.example.org',
  SMTP_USER: 'signin',
  SMTP_PASSWORD: 'smtp-password',
};

describe('compose.yaml', () => {
  it('mounts a config file where the image reads it, which loads in production with the environment it passes', () => {
    const configPath = /SIGNIN_CONFIG=(\S+)/.exec(dockerfile)?.[1];
    expect(configPath).toBe('/etc/signin/signin.yaml');
    for (const service of [migrate, signin]) {
      expect(service.build).toBe('.');
      expect(service.volumes).toContain(`./examples/compose/signin.yaml:${configPath}:ro`);
    }
    const env = Object.fromEntries(
      Object.entries(signin.environment ?? {}).map(([name, value]) => [name, interpolate(value, operatorEnv)]),
    );
    const config = loadConfig('examples/compose/signin.yaml', env);
    expect(config.production).toBe(true);
    expect(config.issuer).toBe('https://id.example.org');
    expect(config.storage).toMatchObject({
      kind: 'postgres',
      postgres: { url: 'postgres://signin:pg-password@postgres:5432/signin' },
      redis: { url: 'redis://:redis-password@redis:6379/0' },
    });
  });

  it('migrates once Postgres is up, and starts the server only after the migration succeeded', () => {
    expect(migrate.command).toEqual(['signin', 'migrate']);
    expect(migrate.depends_on?.postgres.condition).toBe('service_healthy');
    expect(signin.depends_on?.migrate.condition).toBe('service_completed_successfully');
    expect(signin.command).toBeUndefined(); // the image's own: signin serve
  });

  it("keeps Redis's data in an append-only file written every second, in a volume", () => {
    const command = (redis.command ?? []).join(' ');
    expect(command).toContain('--appendonly yes');
    expect(command).toContain('--appendfsync everysec');
    expect(redis.volumes).toContain('redis:/data');
  });

  it('gives the server more time to stop than its drain and the requests in flight take', () => {
    const config = parse(readFileSync('examples/compose/signin.yaml', 'utf8')) as { shutdown: { drainSeconds: number } };
    const grace = Number(/^(\d+)s$/.exec(signin.stop_grace_period ?? '')?.[1]);
    // Drain, then up to 10 s for the requests in flight (docs/operations/deploy.md#graceful-shutdown).
    expect(grace).toBeGreaterThan(config.shutdown.drainSeconds + 10);
  });
});

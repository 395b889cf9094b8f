// The container image (Dockerfile) built and run with podman, as an operator runs it: on the embedded
// store (`signin init`, then the image's own command), and on the machine's Postgres and Redis through a
// whole sign-in. No registry is reachable here, so the image is built on a Node image of the tests' own
// (base-image.ts) through the Dockerfile's NODE_IMAGE argument. Slow the first time (debootstrap, npm
// ci): the base image and podman's layers are kept between runs. Not in the unit lane.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '../support/databases.ts';
import { signIn, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { freePort } from '../server/child-server.ts';
import { nodeBaseImage } from './base-image.ts';
import { podman, podmanMissing, podmanResult } from './podman.ts';

const IMAGE = 'localhost/signin-test:latest';
const MAX_IMAGE_BYTES = 350 * 1000 * 1000;
const suffix = randomBytes(4).toString('hex');
const made = { containers: [] as string[], volumes: [] as string[] };

const missing = podmanMissing();

beforeAll(() => {
  // Under CI a machine without podman fails here; elsewhere too, with the way to get it.
  if (missing) throw new Error(`${missing}: the container tests need it${process.env.CI ? ' (CI)' : ''}`);
  const base = nodeBaseImage();
  podman(
    ['build', '--network=host', '--format', 'docker', '--build-arg', `NODE_IMAGE=${base}`, '--tag', IMAGE, '--file', 'Dockerfile', '.'],
    { timeoutMs: 900_000 },
  );
  // Each build with changed sources leaves its stages' layers behind: those a week old go (the next build
  // may then run `npm ci` again). The base images are tagged and stay.
  podmanResult(['image', 'prune', '--force', '--filter', 'until=168h']);
}, 1_200_000);

afterAll(() => {
  if (missing) return;
  for (const name of made.containers) podmanResult(['rm', '--force', '--volumes', '--time', '0', name]);
  for (const name of made.volumes) podmanResult(['volume', 'rm', '--force', name]);
});

describe('the container image', () => {
  it('stays under 350 MB, runs as a user other than root and checks its health on /readyz', () => {
    const size = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]).trim());
    console.log(`image size: ${(size / 1e6).toFixed(0)} MB`);
    expect(size).toBeLessThan(MAX_IMAGE_BYTES);

    expect(podman(['run', '--rm', IMAGE, 'id', '-u']).trim()).not.toBe('0');
    const [image] = JSON.parse(podman(['image', 'inspect', IMAGE])) as {
      Config: { Cmd: string[]; Volumes: Record<string, unknown> };
      Healthcheck?: { Test: string[] };
    }[];
    expect(image.Config.Cmd).toEqual(['signin', 'serve']);
    expect(Object.keys(image.Config.Volumes).sort()).toEqual(['/etc/signin', '/var/lib/signin']);
    expect(image.Healthcheck?.Test.join(' ')).toContain('/readyz');
  });

  it('on the embedded store: `signin init`, then its command serves discovery, and stops at once on SIGTERM', async () => {
    const port = await freePort();
    const issuer = `http://localhost:${port}`;
    const volumes = ['-v', `${volume('config')}:/etc/signin`, '-v', `${volume('data')}:/var/lib/signin`];

    podman(['run', '--rm', ...volumes, IMAGE, 'signin', 'init', '--issuer', issuer]);
    const name = container('embedded');
    podman(['run', '--detach', '--name', name, '--network=host', '-e', `PORT=${port}`, ...volumes, IMAGE]);
    await waitReady(name, port);

    const discovery = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(issuer);
    expect(podmanResult(['healthcheck', 'run', name]).status).toBe(0);
    // The embedded store writes its data folder in the data volume.
    expect(podman(['exec', name, 'ls', '/var/lib/signin/data']).trim()).not.toBe('');

    await expectQuickStop(name);
  }, 300_000);

  it('on Postgres and Redis: migrate, a user and an application from the CLI, then a sign-in with PKCE', async () => {
    const port = await freePort();
    const issuer = `http://localhost:${port}`;
    const database = 'signin_container';
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${database}`);
    const databaseUrl = new URL(TEST_POSTGRES_URL);
    databaseUrl.pathname = `/${database}`;

    // The config file mounted read-only, its secrets and URLs from the environment (as compose.yaml does).
    const configDir = mkdtempSync(join(tmpdir(), 'signin-container-'));
    try {
      writeFileSync(
        join(configDir, 'signin.yaml'),
        [
          `issuer: "${issuer}"`,
          `port: ${port}`,
          'secrets:',
          '  cookieKeys: ["${SIGNIN_COOKIE_KEY}"]',
          '  pairwiseSalt: "${SIGNIN_PAIRWISE_SALT}"',
          '  keyEncryptionKey: "${SIGNIN_KEY_ENCRYPTION_KEY}"',
          'storage:',
          '  kind: postgres',
          '  postgres:',
          '    url: "${DATABASE_URL}"',
          '  redis:',
          '    url: "${REDIS_URL}"',
          `    keyPrefix: "signin-container-${suffix}:"`,
          '',
        ].join('\n'),
      );
      chmodSync(configDir, 0o755);
      chmodSync(join(configDir, 'signin.yaml'), 0o644);
      const secret = () => randomBytes(32).toString('base64url');
      const run = [
        '--rm',
        '--network=host',
        '-v',
        `${configDir}:/etc/signin:ro`,
        ...['-e', `DATABASE_URL=${databaseUrl.href}`, '-e', `REDIS_URL=${TEST_REDIS_URL}`],
        ...['-e', `SIGNIN_COOKIE_KEY=${secret()}`, '-e', `SIGNIN_PAIRWISE_SALT=${secret()}`, '-e', `SIGNIN_KEY_ENCRYPTION_KEY=${secret()}`],
      ];

      podman(['run', ...run, IMAGE, 'signin', 'migrate']);
      const user = { email: 'ada@example.com', password: 'correct horse battery staple' };
      podman(
        [
          'run',
          '-i',
          ...run,
          IMAGE,
          'signin',
          'user',
          'create',
          '--email',
          user.email,
          '--username',
          'ada',
          '--first-name',
          'Ada',
          '--verified',
        ],
        {
          input: `${user.password}\n`,
        },
      );
      const redirectUri = 'https://app.example.org/callback';
      const created = JSON.parse(
        podman([
          'run',
          ...run,
          IMAGE,
          ...['signin', 'client', 'create', '--name', 'Demo', '--description', 'A demonstration application', '--type', 'web'],
          ...['--redirect-uri', redirectUri, '--scopes', 'openid email profile', '--json'],
        ]),
      ) as { client_id: string; client_secret: string };

      const name = container('postgres');
      podman(['run', '--detach', '--name', name, ...run.slice(1), '-e', `PORT=${port}`, IMAGE]);
      await waitReady(name, port);

      const client = {
        clientId: created.client_id,
        clientSecret: created.client_secret,
        redirectUri,
        scopes: ['openid', 'email', 'profile'],
      };
      const rp = await relyingParty(issuer, client);
      const { tokens } = await signIn(issuer, rp, user);
      expect(tokens.access_token).toBeTruthy();
      expect(tokens.claims()?.iss).toBe(issuer);
      expect(tokens.claims()?.sub).toBeTruthy();
      expect((await userinfo(issuer, tokens.access_token)).json.email).toBe(user.email);

      await expectQuickStop(name);
    } finally {
      rmSync(configDir, { recursive: true, force: true });
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    }
  }, 300_000);
});

function container(role: string): string {
  const name = `signin-test-${role}-${suffix}`;
  made.containers.push(name);
  return name;
}

function volume(role: string): string {
  const name = `signin-test-${role}-${suffix}`;
  podman(['volume', 'create', name]);
  made.volumes.push(name);
  return name;
}

/** Waits for `/readyz`: the embedded store's first start creates its database, tens of seconds on a busy machine. */
async function waitReady(name: string, port: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    if (podman(['inspect', '--format', '{{.State.Running}}', name]).trim() !== 'true') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${name} never answered /readyz:\n${podmanResult(['logs', name]).stderr}${podmanResult(['logs', name]).stdout}`);
}

/** `podman stop` sends SIGTERM and kills after 10 s: the server must have drained and exited 0 well before. */
async function expectQuickStop(name: string): Promise<void> {
  const started = performance.now();
  podman(['stop', name]);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${name} stopped in ${seconds.toFixed(1)} s`);
  expect(seconds).toBeLessThan(5);
  expect(podman(['inspect', '--format', '{{.State.ExitCode}}', name]).trim()).toBe('0');
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

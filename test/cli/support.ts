// Drives the CLI in-process against a throwaway embedded store, capturing what it prints.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/main.ts';
import { freshPostgres, freshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';

export interface CliResult {
  code: number;
  stdout: string;
  /** What the command wrote on stderr, less its security-log lines (see `log`). */
  stderr: string;
  /** The security-log lines the command wrote on stderr, parsed. */
  log: Array<Record<string, unknown>>;
}

export async function cli(
  argv: string[],
  options: { stdin?: NodeJS.ReadableStream | string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdin: options.stdin ?? '',
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    // No SIGNIN_CONFIG from the developer's shell may leak into a test.
    env: options.env ?? {},
  });
  const lines = stderr.split(/(?<=\n)/);
  const isLogLine = (line: string) => line.startsWith('{"level":');
  return {
    code,
    stdout,
    stderr: lines.filter((l) => !isLogLine(l)).join(''),
    log: lines.filter(isLogLine).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

export const randomSecret = (): string => randomBytes(32).toString('base64url');

export interface Workspace {
  dir: string;
  dataDir: string;
  /** A config file on the embedded store of this workspace. */
  config: string;
  remove(): void;
}

/**
 * A temporary folder with a config file (random secrets) whose embedded store lives inside it.
 * `storage` replaces the storage section (YAML lines); `extra` is appended as is.
 */
export function workspace(options: { storage?: string[]; extra?: string } = {}): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'signin-cli-'));
  const dataDir = join(dir, 'data');
  const config = join(dir, 'signin.yaml');
  writeFileSync(
    config,
    [
      'issuer: http://localhost:3000',
      'secrets:',
      `  cookieKeys: ["${randomSecret()}"]`,
      `  pairwiseSalt: "${randomSecret()}"`,
      ...(options.storage ?? ['storage:', '  kind: embedded', `  dataDir: ${JSON.stringify(dataDir)}`]),
      options.extra ?? '',
    ].join('\n'),
  );
  return { dir, dataDir, config, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Arguments of a valid `client create`, to which a test adds or overrides options. */
export const CLIENT_ARGS = [
  'client',
  'create',
  '--name',
  'Notes',
  '--description',
  'A note-taking app',
  '--type',
  'web',
  '--redirect-uri',
  'https://notes.example/callback',
  '--scopes',
  'openid email profile',
];

/** A service on a fresh Postgres and Redis, and a CLI workspace whose config names the same stores. */
export interface ServiceWithCli {
  svc: TestService;
  ws: Workspace;
  stop(): Promise<void>;
}

export async function serviceWithCli(): Promise<ServiceWithCli> {
  const pg = await freshPostgres();
  const redis = await freshRedis();
  const svc = await startTestService({ storage: { kind: 'postgres', postgres: { url: pg.url }, redis: redis.config } });
  const ws = workspace({
    storage: [
      'storage:',
      '  kind: postgres',
      '  postgres:',
      `    url: ${JSON.stringify(pg.url)}`,
      '  redis:',
      `    url: ${JSON.stringify(redis.config.url)}`,
      `    keyPrefix: ${JSON.stringify(redis.keyPrefix)}`,
    ],
  });
  return {
    svc,
    ws,
    async stop() {
      await svc.stop();
      ws.remove();
      await redis.cleanup();
      await pg.drop();
    },
  };
}

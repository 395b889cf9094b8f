import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.ts';
import { cli, workspace, type Workspace } from './support.ts';

const BIN = fileURLToPath(new URL('../../bin/signin.js', import.meta.url));

const PASSWORD = 'correct horse battery';

describe('signin user create', { timeout: 120_000 }, () => {
  let ws: Workspace;
  const create = (args: string[], stdin: NodeJS.ReadableStream | string = `${PASSWORD}\n`) =>
    cli(['user', 'create', '--config', ws.config, ...args], { stdin });

  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('creates an account from the password on stdin and prints its id', async () => {
    const result = await create(['--email', 'Ada@Example.com', '--username', 'ada', '--first-name', 'Ada']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.stdout).not.toContain(PASSWORD);
  });

  it('prints the account as JSON with --json, reading a piped stream', async () => {
    const stdin = Readable.from([`${PASSWORD}\nrest of the input\n`]);
    const result = await create(
      ['--email', 'grace@example.com', '--username', 'grace', '--first-name', 'Grace', '--verified', '--json'],
      stdin,
    );
    expect(result.code).toBe(0);
    const account = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(account).toEqual({
      id: expect.any(String),
      email: 'grace@example.com',
      username: 'grace',
      firstName: 'Grace',
      emailVerified: true,
    });
  });

  it('refuses an e-mail already used, whatever its case, with exit 1', async () => {
    const result = await create(['--email', 'ada@EXAMPLE.com', '--username', 'ada2', '--first-name', 'Ada']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--email: .*already exists/);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('refuses a username already used, with exit 1', async () => {
    const result = await create(['--email', 'other@example.com', '--username', 'ADA', '--first-name', 'Ada']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--username: .*already exists/);
  });

  it('refuses a short or empty password without echoing it', async () => {
    const short = await create(['--email', 'bob@example.com', '--username', 'bob', '--first-name', 'Bob'], 'abc1234\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8 characters/);
    expect(short.stderr + short.stdout).not.toContain('abc1234');

    const empty = await create(['--email', 'bob@example.com', '--username', 'bob', '--first-name', 'Bob'], '');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no password/);
  });

  it('refuses a password the sign-up page refuses, with the reason the page gives, and creates nothing', async () => {
    const user = ['--email', 'awa@example.com', '--username', 'awa', '--first-name', 'Awa'];
    const common = await create(user, 'password\n');
    expect(common.code).toBe(1);
    expect(common.stderr).toBe(`signin: password: ${en['password.error.common']}\n`);

    const personal = await create(user, 'awa@example.com\n');
    expect(personal.code).toBe(1);
    expect(personal.stderr).toContain(en['password.error.personal']);
    expect(personal.stderr).not.toContain('awa@example.com\n');

    const created = await create(user);
    expect(created.code).toBe(0);
  });

  it('refuses the e-mail, username and first name the sign-up page refuses, before asking for the password', async () => {
    const result = await create(['--email', 'bob@localhost', '--username', 'b', '--first-name', ' '], '');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `signin: --email: ${en['signup.error.email']}`,
        `signin: --username: ${en['signup.error.username']}`,
        `signin: --first-name: ${en['signup.error.firstName']}`,
        '',
      ].join('\n'),
    );
  });

  it('as a program: `signin user create` with the password "password" exits 1 and opens no database', () => {
    // The development defaults, as on a fresh clone: the embedded store would go to ./data.
    const dir = mkdtempSync(join(tmpdir(), 'signin-cli-cwd-'));
    try {
      const result = spawnSync('node', [BIN, 'user', 'create', '--email', 'a@example.org', '--username', 'aaa', '--first-name', 'A'], {
        cwd: dir,
        input: 'password\n',
        encoding: 'utf8',
        env: { ...process.env, SIGNIN_CONFIG: '' },
        timeout: 60_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`signin: password: ${en['password.error.common']}\n`);
      expect(existsSync(join(dir, 'data'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('treats a missing required option as bad usage (exit 2)', async () => {
    const result = await create(['--email', 'bob@example.com', '--username', 'bob']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--first-name');
    expect(result.stderr).toContain('--help');
  });
});

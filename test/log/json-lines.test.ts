// With JSON logs, every line the server writes (stdout and stderr) is a JSON object: its own start and stop
// lines, the engine's warnings (the body-parser one was triggered by the service's own body reader), and an
// `authorization.refused` event for an unknown client_id or an unregistered redirect_uri, with the address
// received (outside production), which the error page also shows to the developer.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, randomSecret } from '../cli/support.ts';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'signin-json-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Below Linux's ephemeral range (32768 and up), where outgoing connections take theirs.
const port = 20000 + Math.floor(Math.random() * 12000);
const issuer = `http://localhost:${port}`;
const config = join(dir, 'signin.yaml');
writeFileSync(
  config,
  [
    `issuer: ${issuer}`,
    `port: ${port}`,
    'secrets:',
    `  cookieKeys: ["${randomSecret()}"]`,
    `  pairwiseSalt: "${randomSecret()}"`,
    'storage:',
    '  kind: embedded',
    `  dataDir: ${JSON.stringify(join(dir, 'data'))}`,
    `mail: { outbox: ${JSON.stringify(join(dir, 'outbox'))} }`,
    'log:',
    '  pretty: false',
  ].join('\n'),
);

describe('the JSON log of a session', { timeout: 240_000 }, () => {
  it('is JSON on every line, and names the refused authorization requests', async () => {
    const created = await cli(
      ['client', 'create', '--config', config, '--json', '--name', 'Notes', '--description', 'Notes', '--type', 'web'].concat([
        '--redirect-uri',
        'https://notes.example/callback',
        '--scopes',
        'openid email profile',
      ]),
    );
    expect(created.stderr).toBe('');
    const client = JSON.parse(created.stdout) as { client_id: string; client_secret: string };

    const server = spawn(process.execPath, [join(ROOT, 'bin', 'signin.js'), 'serve', '--config', config], {
      cwd: dir,
      env: { ...process.env, SIGNIN_CONFIG: '', PORT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    server.stdout.on('data', (d) => (stdout += d));
    server.stderr.on('data', (d) => (stderr += d));
    try {
      for (let i = 0; i < 600 && !stdout.includes('listening'); i += 1) {
        if (server.exitCode !== null) throw new Error(`the server stopped:\n${stdout}${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }

      // A form post to the engine: the service's guard reads it first, then hands it on.
      const token = await fetch(`${issuer}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'nope',
          redirect_uri: 'https://notes.example/callback',
          client_id: client.client_id,
          client_secret: client.client_secret,
        }),
      });
      expect(token.status).toBe(400);
      expect(((await token.json()) as { error: string }).error).toBe('invalid_grant');

      const authorize = (params: Record<string, string>) =>
        fetch(
          `${issuer}/oauth/authorize?${new URLSearchParams({ response_type: 'code', scope: 'openid', state: 'abc', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', ...params })}`,
        );
      const mismatch = await authorize({ client_id: client.client_id, redirect_uri: 'https://notes.example/callbak' });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.text()).toContain('redirect_uri https://notes.example/callbak is not registered');
      const unknown = await authorize({ client_id: 'no-such-client', redirect_uri: 'https://notes.example/callback' });
      expect(unknown.status).toBe(400);
      expect(await unknown.text()).toContain('client_id no-such-client is not registered');
    } finally {
      server.kill('SIGTERM');
      if (server.exitCode === null) await once(server, 'exit');
    }

    const lines = `${stdout}${stderr}`.split('\n').filter((line) => line.trim());
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a line of the log is not JSON: ${line}`);
      }
    });
    expect(parsed.some((line) => String(line.msg).includes('listening'))).toBe(true);
    expect(parsed.filter((line) => line.event === 'authorization.refused')).toEqual([
      expect.objectContaining({
        client_id: client.client_id,
        reason: 'unregistered_redirect_uri',
        redirect_uri: 'https://notes.example/callbak',
      }),
      expect.objectContaining({ client_id: 'no-such-client', reason: 'unknown_client' }),
    ]);
    expect(lines.join('\n')).not.toContain('already parsed request body');
  });
});

// A command reads and checks only the sections of the config it uses: listing users needs the storage,
// not the SMTP password nor the metrics token, whose variables an operator's shell may well not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, workspace, type Workspace } from './support.ts';

const SERVER_ONLY = [
  'mail:',
  '  smtp:',
  '    host: smtp.example.org',
  '    port: 587',
  '    user: signin',
  '    pass: ${SMTP_PASSWORD}',
  'metrics:',
  '  bearerToken: ${SIGNIN_METRICS_TOKEN}',
].join('\n');

describe('configuration sections read by each command', { timeout: 120_000 }, () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace({ extra: SERVER_ONLY });
  });
  afterAll(() => ws.remove());

  it('lists, creates and shows users with the SMTP and metrics variables unset', async () => {
    const created = await cli(
      ['user', 'create', '--config', ws.config, '--email', 'ada@example.com', '--username', 'ada', '--first-name', 'Ada'],
      {
        stdin: 'correct-horse-battery-staple-9\n',
      },
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const listed = await cli(['user', 'list', '--config', ws.config]);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toContain('ada@example.com');
    expect(await cli(['user', 'show', 'ada', '--config', ws.config])).toMatchObject({ code: 0, stderr: '' });
    expect(await cli(['client', 'list', '--config', ws.config])).toMatchObject({ code: 0, stderr: '' });
    expect(await cli(['migrate', '--config', ws.config])).toMatchObject({ code: 0, stderr: '' });
  });

  it('still refuses an unknown top-level key, and the server still needs every variable', async () => {
    const typo = workspace({ extra: 'storag: {}' });
    try {
      const listed = await cli(['user', 'list', '--config', typo.config]);
      expect(listed.code).toBe(2);
      expect(listed.stderr).toContain('storag');
    } finally {
      typo.remove();
    }
    const served = await cli(['serve', '--port', '0', '--config', ws.config]);
    expect(served.code).toBe(2);
    expect(served.stderr).toMatch(/environment variable (SMTP_PASSWORD|SIGNIN_METRICS_TOKEN) is not set/);
  });
});

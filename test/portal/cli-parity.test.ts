// The CLI does to applications everything the portal does: create, list, show, update, rotate, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ARGS, cli, workspace, type Workspace } from '../cli/support.ts';

describe('signin client: parity with the portal', { timeout: 60_000 }, () => {
  let ws: Workspace;
  const client = (args: string[]) => cli(['client', ...args, '--config', ws.config]);
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('update changes only the options given and prints the application as JSON', async () => {
    const created = JSON.parse((await cli([...CLIENT_ARGS, '--json', '--config', ws.config])).stdout) as {
      client_id: string;
      name: string;
      scopes: string[];
    };
    const result = await client([
      'update',
      created.client_id,
      '--name',
      'Renamed',
      '--redirect-uri',
      'https://a.example.org/cb',
      '--redirect-uri',
      'https://b.example.net/cb',
      '--json',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const updated = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(updated).toMatchObject({
      client_id: created.client_id,
      name: 'Renamed',
      redirect_uris: ['https://a.example.org/cb', 'https://b.example.net/cb'],
      scopes: created.scopes,
    });
    expect(result.stdout).not.toMatch(/secret/);

    const scopes = await client(['update', created.client_id, '--scopes', 'openid,email', '--description', 'New words']);
    expect(scopes.code).toBe(0);
    expect(scopes.stdout).toMatch(/^scopes: +openid email$/m);
    expect(scopes.stdout).toMatch(/^description: +New words$/m);
  });

  it('update refuses invalid values with the option at fault, an unknown id, and an empty update', async () => {
    const created = JSON.parse((await cli([...CLIENT_ARGS, '--json', '--config', ws.config])).stdout) as { client_id: string };
    const invalid = await client(['update', created.client_id, '--redirect-uri', 'http://app.example.org/cb']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('--redirect-uri');
    const unknown = await client(['update', 'A'.repeat(32), '--name', 'x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no client with id ${'A'.repeat(32)}`);
    const empty = await client(['update', created.client_id]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('nothing to update');
    expect((await client(['update', created.client_id, '--type', 'spa'])).code).toBe(2);
  });

  it('lists every command of the portal in its help', async () => {
    const help = await cli(['client', '--help']);
    for (const command of ['create', 'list', 'show', 'update', 'rotate-secret', 'delete'])
      expect(help.stdout).toContain(`signin client ${command}`);
  });
});

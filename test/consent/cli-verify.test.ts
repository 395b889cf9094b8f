// The operator's side of trust on the consent screen: `signin client verify ID [--remove]`, and the
// `--logo-uri`, `--policy-uri` and `--tos-uri` options of `client create` and `client update`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ARGS, cli, workspace, type Workspace } from '../cli/support.ts';

let ws: Workspace;
const client = (...args: string[]) => cli(['client', ...args, '--config', ws.config]);
beforeAll(() => {
  ws = workspace();
});
afterAll(() => ws.remove());

interface Shown {
  client_id: string;
  name: string;
  logo_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  verified: boolean;
}

describe('signin client verify and the consent screen links', { timeout: 120_000 }, () => {
  it('registers the links, verifies the application, and a new name ends the verification', async () => {
    const created = await cli([
      ...CLIENT_ARGS,
      '--logo-uri',
      'https://notes.example/logo.png',
      '--policy-uri',
      'https://notes.example/privacy',
      '--json',
      '--config',
      ws.config,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { client_id } = JSON.parse(created.stdout) as { client_id: string };
    const show = async () => JSON.parse((await client('show', client_id, '--json')).stdout) as Shown;
    expect(await show()).toMatchObject({
      logo_uri: 'https://notes.example/logo.png',
      policy_uri: 'https://notes.example/privacy',
      tos_uri: null,
      verified: false,
    });

    const verified = await client('verify', client_id);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`verified client ${client_id} ("Notes")`);
    expect(verified.log).toEqual([expect.objectContaining({ event: 'application.changed', reason: 'verified', client_id })]);
    expect((await show()).verified).toBe(true);
    expect((await client('show', client_id)).stdout).toMatch(/^verified: +\d{4}-/m);

    // Terms added: still verified. A new name: no longer.
    expect((await client('update', client_id, '--tos-uri', 'https://notes.example/terms')).code).toBe(0);
    expect(await show()).toMatchObject({ tos_uri: 'https://notes.example/terms', verified: true });
    expect((await client('update', client_id, '--name', 'Notes Pro')).code).toBe(0);
    expect((await show()).verified).toBe(false);

    await client('verify', client_id);
    expect((await client('verify', client_id, '--remove')).stdout).toContain('is no longer verified');
    expect((await show()).verified).toBe(false);
    // An empty value removes a link.
    expect((await client('update', client_id, '--policy-uri', '')).code).toBe(0);
    expect((await show()).policy_uri).toBeNull();
  });

  it('names the option of a link that is not an https URL, and an unknown id', async () => {
    const refused = await cli([...CLIENT_ARGS, '--policy-uri', 'http://notes.example/privacy', '--config', ws.config]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--policy-uri: http://notes.example/privacy must be an https URL');
    const unknown = await client('verify', 'A'.repeat(32));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no client with id ${'A'.repeat(32)}`);
    expect((await cli(['client', '--help'])).stdout).toContain('signin client verify CLIENT_ID [--remove]');
  });
});

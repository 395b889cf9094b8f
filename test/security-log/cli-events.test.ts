// The admin CLI's security events: each action on an application (registered, changed, secret rotated,
// deleted) and on a user is one JSON line on the command's stderr, naming the application or account
// and the operating-system user who ran it, never the secret or the password; stdout stays the
// command's own output (still valid JSON with --json).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ARGS, cli, workspace, type CliResult, type Workspace } from '../cli/support.ts';

let ws: Workspace;
beforeAll(() => {
  ws = workspace();
});
afterAll(() => ws.remove());

const run = (args: string[], stdin = '') => cli([...args, '--config', ws.config], { stdin });

function onlyEvent(result: CliResult, event: string): Record<string, unknown> {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.log).toHaveLength(1);
  const [line] = result.log;
  expect(line).toMatchObject({ level: 'info', event, outcome: 'success', source: 'cli' });
  expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  return line;
}

// Each command opens the embedded store anew, as an operator's would: slow on a loaded machine.
describe('CLI security events', { timeout: 120_000 }, () => {
  it('logs an application registered, changed, its secret rotated, and deleted', async () => {
    const created = await run([...CLIENT_ARGS, '--json']);
    const { client_id: clientId, client_secret: firstSecret } = JSON.parse(created.stdout) as { client_id: string; client_secret: string };
    expect(onlyEvent(created, 'application.created')).toMatchObject({ client_id: clientId, actor: expect.any(String) });

    expect(onlyEvent(await run(['client', 'update', clientId, '--name', 'Carnet']), 'application.changed')).toMatchObject({
      client_id: clientId,
    });

    const rotated = await run(['client', 'rotate-secret', clientId, '--json']);
    const { client_secret: secondSecret } = JSON.parse(rotated.stdout) as { client_secret: string };
    expect(onlyEvent(rotated, 'application.secret_rotated')).toMatchObject({ client_id: clientId });

    expect(onlyEvent(await run(['client', 'delete', clientId]), 'application.deleted')).toMatchObject({ client_id: clientId });

    const logged = JSON.stringify([created.log, rotated.log]);
    for (const secret of [firstSecret, secondSecret]) expect(logged).not.toContain(secret);
  });

  it('logs an account created, by its id, without the password or the address', async () => {
    const password = 'une phrase de passe pour la console';
    const result = await run(
      ['user', 'create', '--email', 'Awa.Diop@example.sn', '--username', 'awa', '--first-name', 'Awa'],
      `${password}\n`,
    );
    const line = onlyEvent(result, 'account.created');
    expect(line.account_id).toBe(result.stdout.trim());
    const logged = JSON.stringify(result.log);
    expect(logged).not.toContain(password);
    expect(logged.toLowerCase()).not.toContain('awa.diop');
  });

  it('logs nothing for a command that changes nothing', async () => {
    const result = await run(['client', 'list']);
    expect(result.code).toBe(0);
    expect(result.log).toEqual([]);
  });
});

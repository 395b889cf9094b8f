// The redirect URI rules at the command line: a URI with a user part is refused, naming the rule, and
// an application registered before the rule existed is reported by `signin client list`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { CLIENT_ARGS, cli, workspace, type Workspace } from './support.ts';

describe('redirect URI rules in the CLI', { timeout: 60_000 }, () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  const withRedirect = (uri: string) => CLIENT_ARGS.map((arg, i) => (CLIENT_ARGS[i - 1] === '--redirect-uri' ? uri : arg));

  it('refuses a redirect URI with a user part, naming the rule', async () => {
    for (const uri of ['https://a.example@evil.test/cb', 'https://user:pw@rp.example/cb']) {
      const result = await cli([...withRedirect(uri), '--config', ws.config]);
      expect(result.code, uri).toBe(1);
      expect(result.stderr, uri).toContain(`--redirect-uri: ${uri} must not contain a user name or password`);
    }
  });

  it('reports, on `client list`, an application whose registered URI breaks a rule', async () => {
    const created = await cli([...CLIENT_ARGS, '--json', '--config', ws.config]);
    const { client_id } = JSON.parse(created.stdout) as { client_id: string };
    expect((await cli(['client', 'list', '--config', ws.config])).stderr).toBe('');
    // As registered by an older version, before the rule existed.
    const db = await openPglite(ws.dataDir);
    await db.query(`UPDATE clients SET redirect_uris = '["https://notes.example@evil.test/cb"]' WHERE client_id = $1`, [client_id]);
    await db.close();

    const listed = await cli(['client', 'list', '--config', ws.config]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(client_id);
    expect(listed.stderr).toContain(
      `warning: ${client_id}: redirect URI https://notes.example@evil.test/cb must not contain a user name or password`,
    );
    expect(listed.stderr).toContain('refused');
  });
});

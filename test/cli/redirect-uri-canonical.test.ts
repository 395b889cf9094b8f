// Redirect URIs at the command line are registered in their canonical form, the one a browser sends:
// anything typed otherwise (a missing //, an upper-case host, a default port, a backslash) is refused,
// naming the rule and, for a URI that is not canonical, the form to write; http on a loopback address is
// for single-page and mobile apps only. A web application registered with one before the rule existed is
// reported by `signin client list`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { CLIENT_ARGS, cli, workspace, type Workspace } from './support.ts';

describe('canonical redirect URIs in the CLI', { timeout: 120_000 }, () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  /** `client create` with these redirect URIs and type, the rest from CLIENT_ARGS. */
  const create = (uris: string[], type = 'web', extra: string[] = []) => {
    const args = CLIENT_ARGS.flatMap((arg, i) => {
      if (CLIENT_ARGS[i - 1] === '--type') return [type];
      if (arg === '--redirect-uri') return [];
      if (CLIENT_ARGS[i - 1] === '--redirect-uri') return uris.flatMap((uri) => ['--redirect-uri', uri]);
      return [arg];
    });
    return cli([...args, ...extra, '--config', ws.config]);
  };

  it.each([
    [
      'https:rp.example/cb',
      'web',
      'is not written in its canonical form',
      'write it as https://rp.example/cb (redirect_uri.not_canonical)',
    ],
    [
      'https://RP.example/cb',
      'web',
      'is not written in its canonical form',
      'write it as https://rp.example/cb (redirect_uri.not_canonical)',
    ],
    [
      'https://rp.example:443/cb',
      'web',
      'is not written in its canonical form',
      'write it as https://rp.example/cb (redirect_uri.not_canonical)',
    ],
    [
      'HTTPS://RP.example:443/cb',
      'spa',
      'is not written in its canonical form',
      'write it as https://rp.example/cb (redirect_uri.not_canonical)',
    ],
    [
      'https://rp.example/a/../cb',
      'web',
      'is not written in its canonical form',
      'write it as https://rp.example/cb (redirect_uri.not_canonical)',
    ],
    [
      'https://rp.example/%7ecb',
      'web',
      'is not written in its canonical form',
      'write it as https://rp.example/~cb (redirect_uri.not_canonical)',
    ],
    ['https:/\\evil.test/cb', 'web', 'must not contain a backslash', '(redirect_uri.backslash)'],
    ['http://localhost/cb', 'web', 'must use https', 'only for spa and mobile applications, for development (redirect_uri.https_required)'],
    ['http://127.0.0.1:3000/cb', 'web', 'must use https', '(redirect_uri.https_required)'],
  ])('refuses %s for a %s application, naming the rule', async (uri, type, rule, detail) => {
    const result = await create([uri], type);
    expect(result.code, uri).toBe(1);
    expect(result.stdout, uri).toBe('');
    expect(result.stderr, uri).toContain(`--redirect-uri: ${uri} ${rule}`);
    expect(result.stderr, uri).toContain(detail);
  });

  it('accepts canonical URIs and stores them exactly as typed', async () => {
    const cases: Array<[string, string[]]> = [
      ['web', ['https://rp.example/cb', 'https://rp.example:8443/auth/callback?from=cli', 'https://rp.example/caf%C3%A9']],
      ['spa', ['https://spa.example.org/callback', 'http://localhost:5173/callback', 'http://[::1]:8080/cb']],
      ['mobile', ['com.example.app:/callback', 'http://127.0.0.1/cb', 'https://app.example.org/cb']],
    ];
    for (const [type, uris] of cases) {
      const created = await create(uris, type, ['--json']);
      expect(created.code, `${type}: ${created.stderr}`).toBe(0);
      const { client_id, redirect_uris } = JSON.parse(created.stdout) as { client_id: string; redirect_uris: string[] };
      expect(redirect_uris).toEqual(uris);
      const shown = JSON.parse((await cli(['client', 'show', client_id, '--json', '--config', ws.config])).stdout) as {
        redirect_uris: string[];
      };
      expect(shown.redirect_uris).toEqual(uris);
    }
  });

  it('update refuses a URI that is not canonical, and keeps the registered ones', async () => {
    const { client_id } = JSON.parse((await create(['https://rp.example/cb'], 'web', ['--json'])).stdout) as { client_id: string };
    const refused = await cli(['client', 'update', client_id, '--redirect-uri', 'https:rp.example/other', '--config', ws.config]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('write it as https://rp.example/other (redirect_uri.not_canonical)');
    const shown = JSON.parse((await cli(['client', 'show', client_id, '--json', '--config', ws.config])).stdout) as {
      redirect_uris: string[];
    };
    expect(shown.redirect_uris).toEqual(['https://rp.example/cb']);
  });

  it('reports a web application registered with http://localhost before the rule, and one not in canonical form', async () => {
    const { client_id: dev } = JSON.parse((await create(['https://rp.example/cb'], 'web', ['--json'])).stdout) as { client_id: string };
    const { client_id: legacy } = JSON.parse((await create(['https://rp.example/cb'], 'web', ['--json'])).stdout) as { client_id: string };
    const { client_id: spa } = JSON.parse((await create(['http://localhost:5173/cb'], 'spa', ['--json'])).stdout) as { client_id: string };
    // As registered by an older version, before the rules existed.
    const db = await openPglite(ws.dataDir);
    await db.query(`UPDATE clients SET redirect_uris = $2 WHERE client_id = $1`, [
      dev,
      JSON.stringify(['https://rp.example/cb', 'http://localhost:3000/cb']),
    ]);
    await db.query(`UPDATE clients SET redirect_uris = $2 WHERE client_id = $1`, [legacy, JSON.stringify(['https:rp.example/cb'])]);
    await db.close();

    const listed = await cli(['client', 'list', '--config', ws.config]);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(`warning: ${dev}: redirect URI http://localhost:3000/cb must use https`);
    expect(listed.stderr).toContain(`warning: ${legacy}: redirect URI https:rp.example/cb is not written in its canonical form`);
    expect(listed.stderr).toContain('write it as https://rp.example/cb');
    expect(listed.stderr.match(/registered before the rule, sign-ins to this application are refused/g)).toHaveLength(2);
    // A single-page app in development keeps its loopback URI.
    expect(listed.stderr).not.toContain(spa);
  });
});

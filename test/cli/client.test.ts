import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { verifyClientSecret } from '../../src/clients/credentials.ts';
import { CLIENT_ARGS, cli, workspace, type Workspace } from './support.ts';

interface Created {
  client_id: string;
  client_secret: string;
  name: string;
  app_type: string;
  redirect_uris: string[];
  scopes: string[];
}

describe('signin client', { timeout: 60_000 }, () => {
  let ws: Workspace;
  const client = (args: string[]) => cli([...args, '--config', ws.config]);
  const createJson = async (): Promise<Created> => {
    const result = await client([...CLIENT_ARGS, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Created;
  };

  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('create prints a 32-character id and a 48-character secret, saying it is shown once', async () => {
    const result = await client(CLIENT_ARGS);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^client_id: +[A-Za-z0-9]{32}$/m);
    expect(result.stdout).toMatch(/^client_secret: +[A-Za-z0-9]{48}$/m);
    expect(result.stdout).toMatch(/shown only once/);
  });

  it('create --json prints the credentials and the registration', async () => {
    const created = await createJson();
    expect(created).toEqual({
      client_id: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      client_secret: expect.stringMatching(/^[A-Za-z0-9]{48}$/),
      name: 'Notes',
      app_type: 'web',
      redirect_uris: ['https://notes.example/callback'],
      scopes: ['openid', 'email', 'profile'],
    });
  });

  it('never shows the secret again, and the database holds only its hash', async () => {
    const { client_id, client_secret } = await createJson();

    for (const args of [
      ['client', 'list'],
      ['client', 'list', '--json'],
      ['client', 'show', client_id],
      ['client', 'show', client_id, '--json'],
    ]) {
      const result = await client(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(client_id);
      expect(result.stdout).not.toContain(client_secret);
      expect(result.stdout).not.toContain('sha256$');
    }

    const db = await openPglite(ws.dataDir);
    try {
      const rows = await db.query<{ client_id: string; secret_hash: string }>('SELECT * FROM clients');
      expect(JSON.stringify(rows.rows)).not.toContain(client_secret);
      const row = rows.rows.find((r) => r.client_id === client_id);
      expect(row && verifyClientSecret(row.secret_hash, client_secret)).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('names --redirect-uri when a redirect URI is refused (exit 1)', async () => {
    const args = CLIENT_ARGS.map((a) => (a === 'https://notes.example/callback' ? 'http://notes.example/callback' : a));
    const result = await client(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--redirect-uri: http://notes.example/callback must use https');
    expect(result.stdout).toBe('');
  });

  it('names --scopes when a required scope is missing', async () => {
    const args = CLIENT_ARGS.map((a) => (a === 'openid email profile' ? 'openid,profile' : a));
    const result = await client(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--scopes: must include email');
  });

  it('rotate-secret issues a different 48-character secret and the old one stops matching', async () => {
    const { client_id, client_secret } = await createJson();
    const result = await client(['client', 'rotate-secret', client_id, '--json']);
    expect(result.code).toBe(0);
    const rotated = JSON.parse(result.stdout) as { client_id: string; client_secret: string };
    expect(rotated.client_id).toBe(client_id);
    expect(rotated.client_secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(rotated.client_secret).not.toBe(client_secret);

    const db = await openPglite(ws.dataDir);
    try {
      const { rows } = await db.query<{ secret_hash: string }>('SELECT secret_hash FROM clients WHERE client_id = $1', [client_id]);
      expect(verifyClientSecret(rows[0].secret_hash, rotated.client_secret)).toBe(true);
      expect(verifyClientSecret(rows[0].secret_hash, client_secret)).toBe(false);
    } finally {
      await db.close();
    }
  });

  it('delete removes the client; deleting, showing or rotating an unknown one exits 1', async () => {
    const { client_id } = await createJson();
    const deleted = await client(['client', 'delete', client_id]);
    expect(deleted.code).toBe(0);
    expect((await client(['client', 'list'])).stdout).not.toContain(client_id);

    for (const action of ['delete', 'show', 'rotate-secret']) {
      const result = await client(['client', action, client_id]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`no client with id ${client_id}`);
    }
  });

  it('delete without a client id is bad usage', async () => {
    const result = await client(['client', 'delete']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('CLIENT_ID');
  });
});

// `signin user ...` on an embedded store on disk, as on a laptop or a small single-process install:
// listing and finding accounts, disabling and enabling them, e-mail verification, deletion that keeps
// the applications the account owned, and the exit codes scripts rely on.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../adapters/storage.ts';
import { ClientRegistry } from '../../src/clients/registry.ts';
import { cli, workspace, type Workspace } from '../cli/support.ts';

const PASSWORD = 'correct horse battery';
let ws: Workspace;
const signin = (...args: string[]) => cli([...args, '--config', ws.config], { stdin: `${PASSWORD}\n` });
const ids: Record<string, string> = {};
const outbox = mkdtempSync(join(tmpdir(), 'signin-outbox-'));

beforeAll(async () => {
  // The verification e-mails of this store go to an outbox of its own.
  ws = workspace({ extra: `mail:\n  outbox: ${JSON.stringify(outbox)}` });
  for (const [name, email, firstName] of [
    ['awa', 'awa@example.sn', 'Awa'],
    ['moussa', 'moussa@example.ci', 'Moussa 50%'],
    ['ines', 'ines@example.org', 'Inès'],
  ]) {
    const created = await signin('user', 'create', '--email', email, '--username', name, '--first-name', firstName);
    expect(created.code, created.stderr).toBe(0);
    ids[name] = created.stdout.trim();
  }
}, 180_000);
afterAll(() => {
  ws.remove();
  rmSync(outbox, { recursive: true, force: true });
});

describe('signin user on the embedded store', { timeout: 180_000 }, () => {
  it('lists every account, or those matching --search (a literal text, in any case, in the e-mail, username or first name)', async () => {
    const all = JSON.parse((await signin('user', 'list', '--json')).stdout) as Array<{ username: string; email_verified: boolean }>;
    expect(all.map((a) => a.username)).toEqual(['awa', 'moussa', 'ines']);
    expect(Object.keys(all[0]).sort()).toEqual([
      'created_at',
      'disabled_at',
      'email',
      'email_verified',
      'first_name',
      'id',
      'updated_at',
      'username',
    ]);
    const search = async (text: string) =>
      (JSON.parse((await signin('user', 'list', '--json', '--search', text)).stdout) as Array<{ username: string }>).map((a) => a.username);
    expect(await search('EXAMPLE.SN')).toEqual(['awa']);
    expect(await search('50%')).toEqual(['moussa']);
    expect(await search('%')).toEqual(['moussa']);
    expect(await search('inès')).toEqual(['ines']);
    expect(await search('nobody')).toEqual([]);
    const table = await signin('user', 'list');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+EMAIL\s+USERNAME\s+VERIFIED\s+STATUS\s+CREATED$/);
    expect(table.stdout).toContain('ines@example.org');
  });

  it('finds an account by id, e-mail or username', async () => {
    for (const reference of [ids.awa, 'AWA@example.sn', 'Awa']) {
      const shown = await signin('user', 'show', reference);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(new RegExp(`^id:\\s+${ids.awa}$`, 'm'));
      expect(shown.stdout).toMatch(/^status:\s+active$/m);
    }
    const unknown = await signin('user', 'show', 'nobody@example.org');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account with id, e-mail or username nobody@example.org');
  });

  it('disables and enables an account', async () => {
    expect((await signin('user', 'disable', 'ines')).stdout).toContain(`disabled account ${ids.ines}`);
    expect((await signin('user', 'show', 'ines')).stdout).toMatch(/^status:\s+disabled since \d{4}-/m);
    expect((await signin('user', 'list')).stdout).toMatch(/ines@example\.org\s+ines\s+no\s+disabled/);
    expect((await signin('user', 'enable', 'ines')).code).toBe(0);
    expect((await signin('user', 'show', 'ines')).stdout).toMatch(/^status:\s+active$/m);
  });

  it('marks an address verified, or sends a new verification link', async () => {
    const sent = await signin('user', 'verify-email', 'moussa@example.ci', '--resend', '--lang', 'en');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('sent a new verification link to moussa@example.ci');
    const [mail] = readdirSync(outbox);
    expect(readFileSync(join(outbox, mail), 'utf8')).toMatch(/To: moussa@example\.ci[\s\S]*\/email\/verify\?token=/);
    expect((JSON.parse((await signin('user', 'show', ids.moussa, '--json')).stdout) as { email_verified: boolean }).email_verified).toBe(
      false,
    );

    const marked = await signin('user', 'verify-email', ids.moussa);
    expect(marked.stdout).toContain('marked the e-mail address');
    expect(marked.log).toEqual([expect.objectContaining({ event: 'email.verified' })]);
    expect(
      (JSON.parse((await signin('user', 'show', 'moussa@example.ci', '--json')).stdout) as { email_verified: boolean }).email_verified,
    ).toBe(true);
    expect((await signin('user', 'verify-email', ids.moussa)).stdout).toContain('already verified');
  });

  it('deletes an account, keeping the applications it owned with --keep-applications', async () => {
    const db = await openDatabase({ kind: 'embedded', dataDir: ws.dataDir });
    const { client } = await new ClientRegistry(db)
      .create({
        name: 'Boutique',
        description: 'Une boutique',
        appType: 'web',
        redirectUris: ['https://boutique.example.sn/cb'],
        scopes: ['openid', 'email'],
        ownerId: ids.awa,
      })
      .finally(() => db.close());

    expect((await signin('user', 'delete', 'awa')).code).toBe(1);
    const deleted = await signin('user', 'delete', 'awa', '--keep-applications');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await signin('user', 'show', ids.awa)).code).toBe(1);
    const kept = JSON.parse((await signin('client', 'show', client.clientId, '--json')).stdout) as { owner_id: string | null };
    expect(kept.owner_id).toBeNull();
    expect((JSON.parse((await signin('user', 'list', '--json')).stdout) as unknown[]).length).toBe(2);
  });

  it('answers a wrong command line with exit 2 and an unknown account with exit 1', async () => {
    expect((await signin('user', 'disable')).code).toBe(2);
    expect((await signin('user', 'disable', 'a', 'b')).code).toBe(2);
    expect((await signin('user', 'suspend', 'ines')).code).toBe(2);
    expect((await signin('user', 'verify-email', 'ines', '--lang', 'de', '--resend')).code).toBe(2);
    expect((await signin('user', 'verify-email', 'ines', '--lang', 'en')).code).toBe(2);
    for (const action of ['disable', 'enable', 'delete', 'export', 'verify-email']) {
      const result = await signin('user', action, 'ghost@example.org');
      expect(result.code, action).toBe(1);
      expect(result.log, action).toEqual([]);
    }
  });
});

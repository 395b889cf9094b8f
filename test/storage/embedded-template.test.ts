// A new embedded store starts from the copy of an empty database made for the installed PGlite, not from
// initdb (its memory peak, adapters/sql/embedded-template.ts). After a PGlite upgrade this fails until the
// copy is made again: `npx tsx bin/embedded-template.ts`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgliteVersion, templateFile } from '../../adapters/sql/embedded-template.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';

describe('the embedded store template', { timeout: 120_000 }, () => {
  it('exists for the installed PGlite', () => {
    expect(existsSync(templateFile(pgliteVersion())), `run: npx tsx bin/embedded-template.ts`).toBe(true);
  });

  it('makes a store that migrates, keeps its data and opens again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signin-template-'));
    try {
      const db = await openPglite(join(dir, 'data'));
      await migrate(db);
      await db.query("INSERT INTO signing_keys (kid, jwk) VALUES ('k1', '{}')");
      await db.close();
      const again = await openPglite(join(dir, 'data'));
      expect((await again.query<{ kid: string }>('SELECT kid FROM signing_keys')).rows).toEqual([{ kid: 'k1' }]);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

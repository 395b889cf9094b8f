// Writes the copy of an empty embedded database that a new embedded store starts from
// (adapters/sql/embedded-template.ts), for the installed PGlite version. Run after upgrading PGlite:
//   npx tsx bin/embedded-template.ts
// and commit the new file (removing the old one); test/storage/embedded-template.test.ts fails until then.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteVersion, templateFile } from '../adapters/sql/embedded-template.ts';

const file = templateFile(pgliteVersion());
mkdirSync(dirname(file), { recursive: true });
for (const old of readdirSync(dirname(file))) rmSync(join(dirname(file), old));
const db = await PGlite.create('memory://');
// A checkpoint first, so that the copy holds the catalog in its files rather than in the write-ahead log.
await db.exec('CHECKPOINT');
const dump = await db.dumpDataDir('gzip');
await db.close();
writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
console.log(`wrote ${file} (${Math.round(dump.size / 1024)} KiB)`);

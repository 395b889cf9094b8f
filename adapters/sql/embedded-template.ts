// A new embedded store starts from a copy of an empty database instead of running initdb. PGlite's initdb
// runs a second Postgres beside the first, each in its own WebAssembly memory, and copies its whole heap
// between runs: a first start peaked at over 1 GB of resident memory (a restart at a quarter of that),
// enough for a 512 MB or 1 GB server to kill the process before it listened. The copy is the data folder
// initdb makes (no table of ours: the migrations run at start as on any store), written for one PGlite
// version by `npx tsx bin/embedded-template.ts`; with another version installed, initdb runs as before.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'embedded-template');

/** The installed PGlite's version, read from its package file. */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (pkg.name === '@electric-sql/pglite') return pkg.version;
  }
  return 'unknown';
}

/** Where the copy for `version` is kept. */
export const templateFile = (version: string): string => join(FOLDER, `pglite-${version}.tar.gz`);

/** The copy of an empty data folder for the installed PGlite, if there is one. */
export function embeddedTemplate(): Blob | undefined {
  const file = templateFile(pgliteVersion());
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

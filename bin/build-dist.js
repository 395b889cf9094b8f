#!/usr/bin/env node
// Builds the JavaScript package: compiles the TypeScript sources to `dist/` (imports rewritten to .js)
// and copies beside them the files the code reads at run time, at the same relative places.
//   node bin/build-dist.js [OUT_DIR]      (default: dist)
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist'));
// TypeScript 7's own entry file (the package exports no subpath for it), installed as @typescript/native-7:
// the package named `typescript` is TypeScript 6's API, which the lint reads (eslint.config.js).
const tsc = join(root, 'node_modules', '@typescript', 'native-7', 'bin', 'tsc');

rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out], { stdio: 'inherit' });
for (const asset of ['views', 'adapters/sql/migrations', 'adapters/sql/embedded-template', 'src/accounts/common-passwords.txt']) {
  cpSync(join(root, asset), join(out, asset), { recursive: true });
}
console.log(`built ${out}`);

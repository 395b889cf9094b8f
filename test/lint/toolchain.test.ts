// TypeScript twice, side by side (eslint.config.js says why): the compiler, `tsc` for `npm run typecheck` and
// node_modules/@typescript/native-7 for bin/build-dist.js, is TypeScript 7; the package named `typescript`,
// which typescript-eslint reads, is TypeScript 6's API. Both bring a `tsc` command, and npm links the one of
// the package whose folder sorts first: this fails if an upgrade or a rename hands `tsc` to TypeScript 6.
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const versionAt = (folder: string): string =>
  (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version;

describe('the TypeScript toolchain', () => {
  it('checks and builds with TypeScript 7', () => {
    const tsc = realpathSync(join(root, 'node_modules', '.bin', 'tsc'));
    expect(tsc).toBe(realpathSync(join(root, 'node_modules', '@typescript', 'native-7', 'bin', 'tsc')));
    expect(versionAt(join(root, 'node_modules', '@typescript', 'native-7'))).toMatch(/^7\./);
  });

  it('gives the lint TypeScript 6’s API', () => {
    const ts = createRequire(join(root, 'package.json'))('typescript') as { version: string; createSourceFile?: unknown };
    expect(ts.version).toMatch(/^6\./);
    expect(typeof ts.createSourceFile).toBe('function');
  });
});

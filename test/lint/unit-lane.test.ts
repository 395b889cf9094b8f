// The fast lane's list (vitest.unit.config.ts) stays true: each pattern still names a test file, and no
// file in it imports, directly or through another test file, a helper that starts the service, a store or a
// browser. (test/lint/unit-lane-setup.ts catches at run time what this reading cannot see.)
import { globSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unitTests } from '../../vitest.unit.config.ts';

const root = join(import.meta.dirname, '..', '..');
const STARTERS = ['service', 'databases', 'browser', 'flow', 'relying-party'].map((name) => `test/support/${name}.ts`);

/** The files under test/ that `file` imports for their values, and theirs in turn. */
function testImports(file: string, found = new Set<string>()): Set<string> {
  const code = readFileSync(join(root, file), 'utf8');
  for (const [, spec] of code.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s+'(\.[^']+)'/gm)) {
    const target = relative(root, join(root, dirname(file), spec));
    if (!target.startsWith('test/') || found.has(target)) continue;
    found.add(target);
    testImports(target, found);
  }
  return found;
}

describe('the unit lane', () => {
  it('names only test files that exist', () => {
    for (const pattern of unitTests) expect(globSync(pattern, { cwd: root }), pattern).not.toEqual([]);
  });

  it('holds no test that starts the service, a store or a browser', () => {
    const files = unitTests.flatMap((pattern) => globSync(pattern, { cwd: root }));
    expect(files.length).toBeGreaterThan(20);
    const starting = files.flatMap((file) =>
      [...testImports(file)].filter((helper) => STARTERS.includes(helper)).map((helper) => `${file} → ${helper}`),
    );
    expect(starting, 'move these out of vitest.unit.config.ts').toEqual([]);
  });

  it('would see such an import', () => {
    expect([...testImports('test/provider/engine-door.test.ts')]).toEqual(expect.arrayContaining(['test/support/service.ts']));
  });
});

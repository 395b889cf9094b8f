// The lint's floors and engine door (eslint.config.js, docs/architecture/layout.md) cannot vanish unnoticed:
// ESLint, run through its Node API on a few lines of code put at a given place, refuses an import that climbs
// a floor and one that reaches the engine's internals outside the door, and lets the door itself through.
// A source file outside every floor is refused too, so that a new folder cannot escape the rule.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
let eslint: ESLint;

/** The problems ESLint finds in `code` as if it were the file at `path` (relative to the repository). */
async function lint(path: string, code: string): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

describe('the floors', () => {
  it('refuse an import from a floor above', async () => {
    const problems = await lint(
      'src/accounts/lint-sample.ts',
      "import { ROUTES } from '../provider/paths.ts';\n\nexport const routes = ROUTES;\n",
    );
    expect(problems).toEqual([
      {
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining("Floor 6 (domain) imports from floor 4 (the engine's configuration), above it"),
      },
    ]);
  });

  it('let an import go down', async () => {
    expect(
      await lint('src/portal/lint-sample.ts', "import { ROUTES } from '../provider/paths.ts';\n\nexport const routes = ROUTES;\n"),
    ).toEqual([]);
  });

  it('hold every source file: one in a folder of its own is on none', async () => {
    expect(await lint('src/lint-sample/sample.ts', 'export const sample = 1;\n')).toEqual([
      { ruleId: 'floors/on-one-floor', message: expect.stringContaining('This file is on no floor') },
    ]);
  });
});

describe('the engine door', () => {
  it('is the only way to the files behind it', async () => {
    const problems = await lint(
      'src/portal/lint-sample.ts',
      "import { saveGrant } from '../provider/engine/grants.ts';\n\nexport const save = saveGrant;\n",
    );
    expect(problems).toEqual([
      {
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining("The engine's internals are reached through src/provider/engine.ts only"),
      },
    ]);
  });

  it('is the only way to oidc-provider’s own files', async () => {
    const code =
      "import initializeKeystore from 'oidc-provider/lib/helpers/initialize_keystore.js';\n\nexport const keystore = initializeKeystore;\n";
    expect(await lint('src/portal/lint-sample.ts', code)).toEqual([
      {
        ruleId: 'no-restricted-imports',
        message: expect.stringContaining("oidc-provider's internals are imported only under src/provider/engine/"),
      },
    ]);
    expect(await lint('src/provider/engine/lint-sample.ts', code)).toEqual([]);
  });

  it('lets everyone through the door itself', async () => {
    expect(
      await lint('src/portal/lint-sample.ts', "import { saveGrant } from '../provider/engine.ts';\n\nexport const save = saveGrant;\n"),
    ).toEqual([]);
  });
});

// The config schema is the one source of defaults. The file `signin init` writes, the example config
// and the README's configuration table repeat them for the reader: this test fails as soon as one of
// them says something the schema does not.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configTemplate } from '../../src/cli/config-template.ts';
import { configSchema, DEFAULT_PORT } from '../../src/config/schema.ts';
import { accepts, differencesFromDefaults, isRequired, leaves, MINIMAL, schemaDefaults, valueAt, yamlBlocks } from './documented-defaults.ts';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const DEFAULTS = schemaDefaults();

/** Paths of the defaults that none of `documented` names, itself or through a parent section. */
const undocumented = (documented: Iterable<string>): string[] => {
  const paths = [...documented];
  return [...DEFAULTS.keys()].filter((path) => !paths.some((p) => path === p || path.startsWith(`${p}.`)));
};

function checkYamlFile(text: string): void {
  const blocks = yamlBlocks(text);
  for (const block of blocks) {
    expect(accepts(block), JSON.stringify(block)).toBe(true);
    expect(differencesFromDefaults(block)).toEqual([]);
  }
}

describe('config defaults', () => {
  it('the file `signin init` writes shows the schema defaults, live and in its commented sections', () => {
    const text = configTemplate({ issuer: 'https://id.example.org', port: DEFAULT_PORT, cookieKey: 'c'.repeat(43), pairwiseSalt: 'p'.repeat(43), keyEncryptionKey: 'e'.repeat(43) });
    checkYamlFile(text);
    // The commented sections are read too (ttl, languages, portal): otherwise this test would prove little.
    expect(yamlBlocks(text).length).toBeGreaterThan(1);
  });

  it('the example config shows every default, each equal to the schema one', () => {
    const text = read('examples/server/signin.yaml');
    checkYamlFile(text);
    const shown = yamlBlocks(text).flatMap((block) => [...leaves(block).keys()]);
    expect(undocumented(shown)).toEqual([]);
  });

  it("the README's configuration table gives each default as the schema does, and misses none", () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('\n## Configuration\n'), readme.indexOf('\n## ', readme.indexOf('\n## Configuration\n') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows.length).toBeGreaterThan(10);

    const keys: string[] = [];
    for (const row of rows) {
      const [keyCell, defaultCell, meaningCell] = row.split('|').slice(1, 4).map((cell) => cell.trim());
      const key = /^`([A-Za-z.]+)`$/.exec(keyCell)?.[1];
      expect(key, `one key per row: ${row}`).toBeDefined();
      keys.push(key!);
      if (defaultCell === '(required)') {
        expect(isRequired(key!), `${key} is marked required`).toBe(true);
      } else if (defaultCell.startsWith('none')) {
        // "none": absent from a minimal config, as a section that exists only when written.
        expect(valueAt(configSchema.parse(MINIMAL), key!), `${key} is marked as having no default`).toBeUndefined();
      } else {
        const literal = /^`(.*)`$/.exec(defaultCell)?.[1];
        expect(literal, `the default of ${key} is written as \`value\``).toBeDefined();
        for (const [path, value] of leaves(parseYaml(literal!), key)) {
          expect(DEFAULTS.has(path), `${path} has a default in the schema`).toBe(true);
          expect(value, path).toEqual(DEFAULTS.get(path));
        }
        // A lifetime also given in days for the reader, e.g. "(30 days)", must be the same lifetime.
        const days = /\((\d+) days\)/.exec(meaningCell)?.[1];
        if (days) expect(Number(days) * 86_400, `${key} in days`).toBe(DEFAULTS.get(key!));
      }
    }
    expect(undocumented(keys)).toEqual([]);
  });

  it("the README's YAML examples show the schema defaults", () => {
    const fences = [...read('README.md').matchAll(/```yaml\n([\s\S]*?)```/g)].map(([, yaml]) => yaml);
    expect(fences.length).toBeGreaterThan(0);
    for (const yaml of fences) checkYamlFile(yaml);
  });
});


// The config schema is the one source of defaults. The file `signin init` writes, the example config
// and the reference page docs/reference/configuration.md (its tables and its YAML examples) repeat them
// for the reader: this test fails as soon as one of them says something the schema does not. The page's
// tables are generated from the schema (`npm run docs:reference`); this test reads them as a reader would,
// independently of the generator.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configTemplate } from '../../src/cli/config-template.ts';
import { configSchema, DEFAULT_PORT } from '../../src/config/schema.ts';
import {
  accepts,
  differencesFromDefaults,
  isKnownKey,
  isRequired,
  isRequiredWhereItStands,
  leaves,
  MINIMAL,
  schemaDefaults,
  valueAt,
  yamlBlocks,
} from './documented-defaults.ts';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const DEFAULTS = schemaDefaults();
const REFERENCE = 'docs/reference/configuration.md';

/** The rows of the page's key tables (its generated `keys` part), each cell by its column's name. */
function keyRows(page: string): Array<{ row: string; cells: Record<string, string> }> {
  const start = page.indexOf('<!-- generated:start keys -->');
  if (start === -1) throw new Error(`${REFERENCE} has lost its generated key tables`);
  const region = page.slice(start, page.indexOf('<!-- generated:end keys -->', start));
  const split = (line: string): string[] =>
    line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
  const rows: Array<{ row: string; cells: Record<string, string> }> = [];
  let header: string[] = [];
  for (const line of region.split('\n')) {
    if (line.startsWith('| Key |')) header = split(line);
    else if (line.startsWith('| `')) rows.push({ row: line, cells: Object.fromEntries(split(line).map((cell, i) => [header[i], cell])) });
  }
  return rows;
}

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
    const text = configTemplate({
      issuer: 'https://id.example.org',
      port: DEFAULT_PORT,
      cookieKey: 'c'.repeat(43),
      pairwiseSalt: 'p'.repeat(43),
      keyEncryptionKey: 'e'.repeat(43),
    });
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

  it(`the tables of ${REFERENCE} give each default as the schema does, and miss none`, () => {
    const rows = keyRows(read(REFERENCE));
    expect(rows.length).toBeGreaterThan(10);

    const keys: string[] = [];
    for (const { row, cells } of rows) {
      const { Key: keyCell, Default: defaultCell, Description: meaningCell } = cells;
      expect(defaultCell, `a Default column: ${row}`).toBeDefined();
      const key = /^`([A-Za-z.]+)`$/.exec(keyCell)?.[1];
      expect(key, `one key per row: ${row}`).toBeDefined();
      expect(keys, `${key} has one row`).not.toContain(key);
      keys.push(key!);
      expect(isKnownKey(key!), `${key} is a key of the schema`).toBe(true);
      if (defaultCell === '(required)') {
        expect(isRequired(key!), `${key} is marked required`).toBe(true);
      } else if (defaultCell.startsWith('(required ')) {
        // Required once its section is written ("(required in `mail.smtp`)"), absent until then.
        expect(valueAt(configSchema.parse(MINIMAL), key!), `${key} is absent from a minimal config`).toBeUndefined();
        expect(isRequiredWhereItStands(key!), `${key} is required where it stands`).toBe(true);
      } else if (defaultCell.startsWith('none')) {
        // "none": absent from a minimal config, as a section that exists only when written.
        expect(valueAt(configSchema.parse(MINIMAL), key!), `${key} is marked as having no default`).toBeUndefined();
        expect(DEFAULTS.has(key!), `${key} is marked as having no default`).toBe(false);
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

  it(`the YAML examples of ${REFERENCE} are accepted and show the schema defaults`, () => {
    const fences = [...read(REFERENCE).matchAll(/```yaml\n([\s\S]*?)```/g)].map(([, yaml]) => yaml);
    expect(fences.length).toBeGreaterThan(0);
    for (const yaml of fences) checkYamlFile(yaml);
  });
});

// The reference pages and their generated regions: each region sits between `<!-- generated:start NAME -->`
// and `<!-- generated:end NAME -->`; the text around it is written by hand and kept as it is.
import { readFileSync } from 'node:fs';
import { cliRegions } from './cli-page.ts';
import { configurationRegions } from './configuration-page.ts';

export const REGENERATE = 'npm run docs:reference';

export interface ReferencePage {
  /** Path from the repository's root. */
  path: string;
  /** The text of each generated region, by name. */
  generate: () => Promise<Record<string, string>>;
}

export const PAGES: readonly ReferencePage[] = [
  { path: 'docs/reference/configuration.md', generate: async () => configurationRegions() },
  { path: 'docs/reference/cli.md', generate: cliRegions },
];

const REGION = /<!-- generated:start ([\w-]+) -->\n[\s\S]*?<!-- generated:end \1 -->/g;

/** The page with each generated region replaced; every region must be there exactly once. */
export function splice(page: string, regions: Record<string, string>, path: string): string {
  const found = [...page.matchAll(REGION)].map(([, name]) => name);
  for (const name of Object.keys(regions)) {
    const count = found.filter((f) => f === name).length;
    if (count !== 1)
      throw new Error(`${path}: expected one region <!-- generated:start ${name} --> ... <!-- generated:end ${name} -->, found ${count}`);
  }
  const unknown = found.filter((name) => !Object.hasOwn(regions, name));
  if (unknown.length) throw new Error(`${path}: no generator for the region(s) ${unknown.join(', ')}`);
  return page.replace(
    REGION,
    (_all, name: string) => `<!-- generated:start ${name} -->\n${regions[name].trimEnd()}\n<!-- generated:end ${name} -->`,
  );
}

export const ROOT = new URL('../../', import.meta.url);
export const readPage = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

/** What each page should be: its committed text with freshly generated regions. */
export async function expectedPage(page: ReferencePage): Promise<{ committed: string; expected: string }> {
  const committed = readPage(page.path);
  return { committed, expected: splice(committed, await page.generate(), page.path) };
}

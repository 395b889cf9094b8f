// Writes the generated parts of the two reference pages from what the code itself says:
//   docs/reference/configuration.md   from the config schema (src/config/schema.ts: types, defaults,
//                                     ranges, `.describe()` texts) and the loader's own behaviour
//   docs/reference/cli.md             from the help texts, as `signin` prints them (src/cli/help.ts)
// Each generated part sits between `<!-- generated:start NAME -->` and `<!-- generated:end NAME -->`;
// the text around them is written by hand and kept as it is.
//   npm run docs:reference              rewrite the generated parts
//   npm run docs:reference -- --check   only say which page is behind (exit 1)
// test/docs/reference.test.ts regenerates both pages in memory and fails when a committed one differs.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { expectedPage, PAGES, REGENERATE, ROOT } from './docs-reference/pages.ts';

async function main(check: boolean): Promise<number> {
  let behind = 0;
  for (const page of PAGES) {
    const { committed, expected } = await expectedPage(page);
    if (committed === expected) {
      console.log(`${page.path}: up to date`);
    } else if (check) {
      console.error(`${page.path}: behind the code; run \`${REGENERATE}\``);
      behind++;
    } else {
      writeFileSync(new URL(page.path, ROOT), expected);
      console.log(`${page.path}: written`);
    }
  }
  return behind ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await main(process.argv.includes('--check'));
  // The CLI's modules may hold handles open (pools are lazy, but a logger may not be): exit explicitly.
  process.exit(code);
}

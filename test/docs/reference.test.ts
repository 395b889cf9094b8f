// docs/reference/configuration.md and docs/reference/cli.md are generated from the config schema and from
// the help texts `signin` prints (bin/docs-reference/). Each page is regenerated here, in memory, and
// compared with the committed one, so that a changed default, key or help line fails until the page is
// written again. The CLI runs in this process and only for `--help`: no server, no database.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandGroups, commandWords, signin } from '../../bin/docs-reference/cli-page.ts';
import { expectedPage, PAGES, readPage, REGENERATE, splice } from '../../bin/docs-reference/pages.ts';

const source = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const flagsIn = (text: string): string[] => [...new Set(text.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? [])];

describe('reference pages', () => {
  for (const page of PAGES) {
    it(`${page.path} says what the code says`, async () => {
      const { committed, expected } = await expectedPage(page);
      expect(committed, `${page.path} is behind the code: run \`${REGENERATE}\` and commit the page`).toBe(expected);
    });
  }

  it('a generated part is replaced whole, the text around it kept; a lost marker is an error', () => {
    const page = 'Before.\n\n<!-- generated:start a -->\nold\n<!-- generated:end a -->\n\nAfter.\n';
    expect(splice(page, { a: 'new\n' }, 'page.md')).toBe(
      'Before.\n\n<!-- generated:start a -->\nnew\n<!-- generated:end a -->\n\nAfter.\n',
    );
    expect(() => splice('Before.\n', { a: 'new' }, 'page.md')).toThrow(/generated:start a/);
    expect(() => splice(page, {}, 'page.md')).toThrow(/no generator for the region\(s\) a/);
  });
});

describe('the CLI page covers what the CLI does', () => {
  it('every command group main.ts dispatches has its section', () => {
    const dispatch = /const GROUPS[^{]*\{([^}]*)\}/.exec(source('src/cli/main.ts'))?.[1] ?? '';
    const groups = [...dispatch.matchAll(/^\s*([a-z]+):/gm)].map(([, name]) => name);
    expect(groups.length).toBeGreaterThan(3);
    const page = readPage('docs/reference/cli.md');
    for (const group of groups) expect(page, group).toContain(`## \`signin ${group}\``);
  });

  it('every option a command declares is on the page', () => {
    const page = readPage('docs/reference/cli.md');
    const declared = readdirSync(new URL('../../src/cli/', import.meta.url))
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...source(`src/cli/${file}`).matchAll(/'?([a-z][a-z-]*)'?:\s*\{\s*type:\s*'(?:string|boolean)'/g)].map(([, name]) => name),
      );
    expect(declared.length).toBeGreaterThan(10);
    for (const name of declared) expect(page, `--${name}`).toMatch(new RegExp(`--${name}(?![\\w-])`));
  });

  it('every option a help text names is accepted: by the command whose usage shows it, else by one of its group', async () => {
    const { groups } = await commandGroups();
    expect((await signin(['--version'])).code).toBe(0);
    for (const group of groups) {
      // A value follows every option: a string option takes it, a boolean one leaves it as an argument,
      // which --help does not look at. An option the command does not declare is refused (exit 2).
      const accepts = async (words: string[], flag: string): Promise<boolean> => (await signin([...words, flag, 'x', '--help'])).code === 0;
      const commands = group.synopses.map(commandWords);
      for (const [i, synopsis] of group.synopses.entries()) {
        for (const flag of flagsIn(synopsis)) expect(await accepts(commands[i], flag), `${synopsis}: ${flag}`).toBe(true);
      }
      for (const flag of flagsIn(group.help).filter((f) => f !== '--help')) {
        const somewhere = await Promise.all(commands.map((words) => accepts(words, flag)));
        expect(somewhere.some(Boolean), `signin ${group.name} --help names ${flag}`).toBe(true);
      }
    }
  });
});

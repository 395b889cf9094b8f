// The top-level help lists every command of every group, in aligned columns, and a mistyped command,
// sub-command or option is answered with the one probably meant.
import { describe, expect, it } from 'vitest';
import { CLIENT_HELP, KEYS_HELP, MAIN_HELP, USER_HELP } from '../../src/cli/help.ts';
import { cli } from './support.ts';

const commandLines = (): string[] => {
  const block = MAIN_HELP.split('Commands:\n')[1].split('\n\n')[0];
  return block.split('\n');
};

describe('signin --help', () => {
  it('lists every command of each group’s own help', () => {
    const listed = commandLines().map((line) => line.trim().split(/\s{2,}/)[0]);
    for (const [group, help] of [
      ['user', USER_HELP],
      ['client', CLIENT_HELP],
      ['keys', KEYS_HELP],
    ] as const) {
      const actions = [...help.matchAll(new RegExp(`signin ${group} ([a-z-]+)`, 'g'))].map((m) => m[1]);
      for (const action of new Set(actions))
        expect(
          listed.some((c) => c.startsWith(`${group} ${action}`)),
          `${group} ${action}`,
        ).toBe(true);
    }
    expect(listed).toContain('client verify CLIENT_ID');
  });

  it('starts every description in the same column', () => {
    const starts = commandLines().map((line) => /^ {2}\S+(?: \S+)*\s{2,}/.exec(line)?.[0].length);
    expect(starts.every((s) => s !== undefined)).toBe(true);
    expect(new Set(starts).size).toBe(1);
  });
});

describe('a mistyped name', () => {
  it('gets the command, sub-command or option probably meant', async () => {
    expect(await cli(['usr', 'list'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command usr; did you mean user?'),
    });
    expect(await cli(['user', 'lsit'])).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean list?') });
    expect(await cli(['client', 'rotate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean rotate-secret?') });
    expect(await cli(['user', 'list', '--serch', 'ada'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown option --serch; did you mean --search?'),
    });
    expect((await cli(['frobnicate'])).stderr).not.toContain('did you mean');
  });
});

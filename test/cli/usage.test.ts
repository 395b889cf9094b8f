import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ARGS, cli, workspace, type Workspace } from './support.ts';

describe('usage and config errors', () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('--help prints the usage of the CLI and of each group, exit 0', async () => {
    const main = await cli(['--help']);
    expect(main.code).toBe(0);
    expect(main.stdout).toMatch(/Usage: signin <command>/);
    for (const group of ['init', 'migrate', 'serve', 'user', 'client', 'keys']) {
      const result = await cli([group, '--help']);
      expect(result.code, group).toBe(0);
      expect(result.stdout, group).toMatch(new RegExp(`signin ${group}`));
    }
    expect((await cli(['client', 'create', '--help'])).stdout).toContain('--redirect-uri');
  });

  it('--version prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(await cli(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('an unknown option exits 2 with one line naming it and the help to read', async () => {
    const result = await cli([...CLIENT_ARGS, '--colour', 'blue', '--config', ws.config]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('unknown option --colour');
    expect(result.stderr).toContain('signin client --help');
  });

  it('an unknown command, a missing command or an option without its value exits 2', async () => {
    expect(await cli(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command frobnicate') });
    expect(await cli([])).toMatchObject({ code: 2, stderr: expect.stringContaining('signin --help') });
    expect(await cli(['client', 'explode'])).toMatchObject({ code: 2, stderr: expect.stringContaining('signin client explode') });
    expect(await cli(['client', 'create', '--name'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--name needs a value') });
  });

  it('a config file with an unknown key exits 2 and names the key', async () => {
    const bad = workspace({ extra: 'colour: blue' });
    try {
      const result = await cli(['client', 'list', '--config', bad.config]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('colour: unknown key');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      bad.remove();
    }
  });

  it('a missing config file exits 2 and names it', async () => {
    const missing = join(ws.dir, 'nowhere.yaml');
    const result = await cli(['migrate', '--config', missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(missing);
  });
});

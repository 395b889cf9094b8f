import { describe, expect, it } from 'vitest';
import { cli, workspace } from './support.ts';

describe('signin migrate (embedded store)', { timeout: 60_000 }, () => {
  it('applies the migrations once, then says the schema is up to date', async () => {
    const ws = workspace();
    try {
      const first = await cli(['migrate', '--config', ws.config]);
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.stdout).toMatch(/applied migration 001 initial/);

      const second = await cli(['migrate', '--config', ws.config]);
      expect(second).toMatchObject({ code: 0, stderr: '' });
      expect(second.stdout).toMatch(/schema up to date/);
    } finally {
      ws.remove();
    }
  });

  it('reads the config file named by SIGNIN_CONFIG', async () => {
    const ws = workspace();
    try {
      const result = await cli(['migrate'], { env: { SIGNIN_CONFIG: ws.config } });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/applied migration/);
    } finally {
      ws.remove();
    }
  });
});

// `signin serve` refuses a bad port before starting anything, and a port already taken with exit 1.
// (Serving itself, and its graceful stop, run as a real process in test/server and test/package.)
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, workspace, type Workspace } from './support.ts';

describe('signin serve', { timeout: 60_000 }, () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('refuses a port that is not one, from --port or PORT, with exit 2', async () => {
    expect(await cli(['serve', '--port', 'http', '--config', ws.config])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('option --port must be a number from 0 to 65535, not http'),
    });
    expect(await cli(['serve', '--config', ws.config], { env: { PORT: '70000' } })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('PORT must be a number from 0 to 65535, not 70000'),
    });
  });

  it('says so with exit 1 when the port is taken, and leaves nothing open', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const result = await cli(['serve', '--config', ws.config], { env: { PORT: String(port) } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot listen on port ${port}: it is already in use`);
    } finally {
      taken.close();
    }
  });
});

// The passkeys an administrator sees and removes (`signin user show`, `signin user passkeys remove`), on
// Postgres with Redis as the CLI opens them; the export with the public key as the only key material; and
// a deployment that turns passkeys off: no button, no script, no passkey route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage } from '../support/browser.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService } from '../support/service.ts';
import { cli, serviceWithCli, type ServiceWithCli } from '../cli/support.ts';
import { PasskeyStore } from '../../src/passkeys/store.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

describe('passkeys in the CLI and the export', { timeout: 120_000 }, () => {
  let env: ServiceWithCli;
  beforeAll(async () => {
    env = await serviceWithCli();
  }, 60_000);
  afterAll(() => env?.stop());

  it('show lists them, export gives the public key only, passkeys remove removes one', async () => {
    const user = await env.svc.createUser();
    const key = new SoftAuthenticator(user.id);
    await key.register(new PasskeyStore(env.svc.service.context.db));
    const run = (...args: string[]) => cli(['user', ...args, '--config', env.ws.config]);

    const shown = await run('show', user.email);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`passkey:\\s+${key.id} Test key \\(last used never\\)`));
    const json = JSON.parse((await run('show', user.email, '--json')).stdout) as { passkeys: Array<Record<string, unknown>> };
    expect(json.passkeys).toEqual([expect.objectContaining({ id: key.id, name: 'Test key', device_type: 'singleDevice' })]);
    expect(json.passkeys[0]).not.toHaveProperty('public_key');

    const exported = JSON.parse((await run('export', user.email)).stdout) as { passkeys: Array<Record<string, unknown>> };
    expect(exported.passkeys).toEqual([
      {
        id: key.id,
        name: 'Test key',
        public_key: key.publicKey,
        device_type: 'singleDevice',
        backed_up: false,
        transports: ['internal'],
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);

    const removed = await run('passkeys', 'remove', user.email, key.id);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`removed passkey ${key.id}`);
    expect(removed.log).toEqual([expect.objectContaining({ event: 'passkey.removed', account_id: user.id, source: 'cli' })]);
    expect((await run('show', user.email)).stdout).not.toContain(key.id);
    const again = await run('passkeys', 'remove', user.email, key.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('has no passkey');
  });
});

describe('passkeys turned off', () => {
  it('shows the password form alone and answers no passkey route', async () => {
    const svc = await startTestService({ passkeys: { enabled: false } });
    try {
      const rp = await relyingParty(svc.url, await svc.createClient());
      const browser = new Browser(svc.url);
      const page = await browser.open((await rp.start()).url);
      if (!isPage(page)) throw new Error('no login page');
      expect(page.html).toContain('name="password"');
      expect(page.html).not.toContain('passkey');
      expect(page.html).toContain('autocomplete="username"');
      const uid = new URL(page.url).pathname.split('/')[2];
      expect((await browser.agent.post(`/interaction/${uid}/passkey/options`).redirects(0)).status).toBe(404);
    } finally {
      await svc.stop();
    }
  });
});

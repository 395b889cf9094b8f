// Data survives a restart of the embedded store: signing keys (same kid), users, clients, and the
// pairwise sub an application sees.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { signIn } from '../support/flow.ts';

async function jwks(url: string): Promise<{ keys: Array<{ kid: string; alg: string; d?: string }> }> {
  return (await fetch(`${url}/oauth/jwks`)).json() as never;
}

describe('embedded store across restarts', () => {
  it('keeps signing keys, accounts, applications and pairwise identifiers', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'signin-data-'));
    const fixed = {
      storage: { kind: 'embedded' as const, dataDir },
      secrets: { cookieKeys: ['c'.repeat(40)], pairwiseSalt: 'p'.repeat(40) },
    };

    const first = await startTestService(fixed);
    const user = await first.createUser();
    const client = await first.createClient();
    const before = await jwks(first.url);
    const sub = (await signIn(first.url, await relyingParty(first.url, client), user)).tokens.claims()!.sub;
    await first.stop();

    const second = await startTestService(fixed);
    const after = await jwks(second.url);
    expect(after.keys.map((k) => k.kid)).toEqual(before.keys.map((k) => k.kid));
    expect(after.keys.some((k) => k.alg === 'RS256')).toBe(true);
    expect(after.keys.every((k) => k.d === undefined)).toBe(true);
    const again = await signIn(second.url, await relyingParty(second.url, client), user);
    expect(again.tokens.claims()!.sub).toBe(sub);
    await second.stop();
  }, 120_000);
});

// Several instances on one Postgres pick up a rotation made with the CLI without a restart: the change
// is announced on a Postgres channel, and each instance reloads its keys. Nothing here asks the
// instances to reload: they learn of it by themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, workspace, type Workspace } from '../cli/support.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';
import { signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { fetchJwks, kidOf } from './jws.ts';

let pg: FreshPostgres;
let first: TestService;
let second: TestService;
let ws: Workspace;

beforeAll(async () => {
  pg = await freshPostgres();
  const storage = { kind: 'postgres' as const, postgres: { url: pg.url } };
  first = await startTestService({ storage });
  second = await startTestService({ storage });
  ws = workspace({
    storage: ['storage:', '  kind: postgres', '  postgres:', `    url: ${JSON.stringify(pg.url)}`],
    extra: 'keys: { algorithms: [RS256] }',
  });
}, 60_000);
afterAll(async () => {
  await first?.stop();
  await second?.stop();
  ws?.remove();
  await pg?.drop();
});

describe('a rotation on Postgres', () => {
  it('reaches every instance without a restart, and their new ID tokens carry the new kid', async () => {
    const oldKids = (await fetchJwks(first.url)).keys.map((k) => k.kid);
    expect((await fetchJwks(second.url)).keys.map((k) => k.kid)).toEqual(oldKids);

    const rotated = await cli(['keys', 'rotate', '--delay', '0', '--json', '--config', ws.config]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const [{ kid }] = JSON.parse(rotated.stdout) as Array<{ kid: string }>;

    for (const instance of [first, second])
      await eventually(async () => (await fetchJwks(instance.url)).keys.some((k) => k.kid === kid), 'the new key picked up');
    const client = await first.createClient();
    const user = await first.createUser();
    // Signed in on one instance, the other one signs: both have the key.
    const { tokens } = await signIn(second.url, await relyingParty(second.url, client), user);
    expect(kidOf(tokens.id_token!)).toBe(kid);
    expect((await fetchJwks(second.url)).keys.map((k) => k.kid).sort()).toEqual([...oldKids, kid].sort());
  }, 90_000);
});

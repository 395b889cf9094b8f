// A code exchange stores its new tokens side by side and answers once every one is stored. Postgres alone
// holds everything here: the access token goes to oidc_models, the refresh token to its family's row in
// refresh_families. With oidc_models' writes held, the access token cannot be stored; the refresh token
// is stored all the same, the code is not yet redeemed and nothing is answered. Once the writes go
// through, the answer is a 200 whose tokens work.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKey } from '../../adapters/token-key.ts';
import { signedInApp } from '../refresh/support.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';
import {
  createClient,
  createUser,
  freePort,
  postgresStorage,
  sharedConfig,
  startInstance,
  teardown,
  type Instance,
} from './helpers/instance.ts';
import { lockWrites } from './helpers/table-lock.ts';

let db: FreshPostgres;
let instance: Instance;
let reader: pg.Client;
beforeAll(async () => {
  db = await freshPostgres();
  // Timeouts well beyond the time the writes are held: this is a slow store, not an outage.
  const port = await freePort();
  instance = await startInstance(sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(db.url, undefined, 10_000)), port);
  reader = new pg.Client({ connectionString: db.url });
  await reader.connect();
});
afterAll(() =>
  teardown(
    () => reader?.end(),
    () => instance?.stop(),
    () => db?.drop(),
  ),
);

const families = async () => Number((await reader.query<{ n: string }>('SELECT count(*) AS n FROM refresh_families')).rows[0].n);

async function codeRow(code: string) {
  const res = await reader.query<{ consumed: boolean }>(
    `SELECT consumed_at IS NOT NULL AS consumed FROM oidc_models WHERE model = 'AuthorizationCode' AND id_hash = $1`,
    [storageKey(code)],
  );
  return res.rows[0];
}

describe('the tokens of a token response', () => {
  it('are stored side by side, and the code is redeemed and the answer sent only once all are stored', async () => {
    const a = await signedInApp({
      url: instance.url,
      createUser: () => createUser(instance.service),
      createClient: () => createClient(instance.service),
    });
    const flow = await a.code();
    const code = flow.callback.searchParams.get('code') ?? '';
    const before = await families();

    const release = await lockWrites(db.url, 'oidc_models'); // the access token's write waits
    let answered = false;
    let exchange: ReturnType<typeof a.exchange> | undefined;
    try {
      exchange = a.exchange(flow);
      void exchange.then(
        () => (answered = true),
        () => (answered = true),
      );
      // The refresh token's family is written while the access token's write waits...
      await eventually(
        async () => (await families()) === before + 1,
        "the refresh token's family, while the access token's write waits",
        5,
      );
      // ...and the code is still unredeemed, with no answer sent. (That the commit waits for every write,
      // and is not made when one fails, is what outage-retry.test.ts's failed code exchange shows.)
      expect(await codeRow(code)).toEqual({ consumed: false });
      expect(answered).toBe(false);
    } finally {
      await release();
    }

    const answer = await exchange;
    expect(answer.status).toBe(200);
    expect(await codeRow(code)).toEqual({ consumed: true });
    expect((await a.userinfo(String(answer.json.access_token))).status).toBe(200);
    expect((await a.refresh(String(answer.json.refresh_token))).status).toBe(200);
  });
});

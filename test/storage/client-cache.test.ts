// The client cache across instances: when an application's secret is rotated or the application is
// deleted on one instance (or by the CLI, straight in the database), the other instance stops accepting
// the old secret at once (a Postgres NOTIFY), not after the 5 s cache lifetime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { postForm } from '../support/flow.ts';
import type { TestClient } from '../support/service.ts';
import { createClient, postgresStorage, sharedConfig, startInstance, teardown, type Instance } from './helpers/instance.ts';

const CACHE_TTL_MS = 5000; // src/clients/client-cache.ts
let pg: FreshPostgres;
let a: Instance;
let b: Instance;
beforeAll(async () => {
  pg = await freshPostgres();
  const config = sharedConfig('http://127.0.0.1:1', postgresStorage(pg.url, undefined, 3000));
  a = await startInstance(config);
  b = await startInstance(config);
});
afterAll(() =>
  teardown(
    () => a?.stop(),
    () => b?.stop(),
    () => pg?.drop(),
  ),
);

/** A token request whose client authentication is all that matters: a good secret gets invalid_grant. */
const authenticate = (instance: Instance, client: TestClient, secret = client.clientSecret) =>
  postForm(`${instance.url}/oauth/token`, {
    grant_type: 'refresh_token',
    refresh_token: 'not-a-token',
    client_id: client.clientId,
    client_secret: secret,
  });

/** Milliseconds until `instance` rejects `secret` of `client` as invalid_client. */
async function msUntilRejected(instance: Instance, client: TestClient, secret: string, since: number): Promise<number> {
  for (;;) {
    const res = await authenticate(instance, client, secret);
    if (res.json.error === 'invalid_client') return Math.round(performance.now() - since);
    if (performance.now() - since > CACHE_TTL_MS + 2000) throw new Error('old secret still accepted');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('client cache invalidation across instances', () => {
  it('a secret rotated on A is refused by B at once', async () => {
    const client = await createClient(a.service);
    expect((await authenticate(b, client)).json.error).toBe('invalid_grant'); // B has it cached now
    const started = performance.now();
    const secret = await a.service.context.clients.rotateSecret(client.clientId);
    const ms = await msUntilRejected(b, client, client.clientSecret, started);
    console.log(`secret rotated on A: old secret refused by B after ${ms} ms (cache lifetime ${CACHE_TTL_MS} ms)`);
    expect(ms).toBeLessThan(1000);
    expect((await authenticate(b, client, secret)).json.error).toBe('invalid_grant'); // the new one works there
  });

  it('a client deleted on A is unknown to B at once', async () => {
    const client = await createClient(a.service);
    expect((await authenticate(b, client)).json.error).toBe('invalid_grant');
    const started = performance.now();
    await a.service.context.clients.delete(client.clientId);
    const ms = await msUntilRejected(b, client, client.clientSecret, started);
    console.log(`client deleted on A: refused by B after ${ms} ms`);
    expect(ms).toBeLessThan(1000);
  });

  it('a change written straight to the database (the CLI, another tool) reaches both instances', async () => {
    const client = await createClient(a.service);
    for (const instance of [a, b]) expect((await authenticate(instance, client)).json.error).toBe('invalid_grant');
    const started = performance.now();
    await pg.db.query('DELETE FROM clients WHERE client_id = $1', [client.clientId]);
    for (const instance of [a, b]) expect(await msUntilRejected(instance, client, client.clientSecret, started)).toBeLessThan(1000);
  });
});

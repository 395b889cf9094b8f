// Redis comes back with an older state (a failover to a replica that lagged, a restore from a backup): a
// snapshot is taken, then a code is redeemed and tokens are revoked, then Redis is stopped, the snapshot put
// back and Redis started again. The redeemed code and the revoked tokens are back in Redis, and still the
// code does not redeem a second time and the tokens are refused: on the instance that saw the revocation,
// on another one that only heard of it, and on one started afterwards. A private redis-server on a port of
// its own, with its data in a temporary folder; Postgres as usual.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKey } from '../../adapters/token-key.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { authorize, exchangeCode, postForm, refreshGrant, signIn, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import type { TestClient } from '../support/service.ts';
import {
  createClient,
  createUser,
  freePort,
  postgresStorage,
  sharedConfig,
  startInstance,
  teardown,
  type Instance,
} from '../storage/helpers/instance.ts';
import { waitUntilReady } from '../storage/helpers/outage.ts';

const SERVER = process.env.SIGNIN_TEST_REDIS_SERVER ?? 'redis-server';
const PREFIX = 'signin:';

/** A redis-server of the test's own, persisting to `dir/dump.rdb` only when told to (SAVE). */
class PrivateRedis {
  readonly dir = mkdtempSync(join(tmpdir(), 'signin-redis-restore-'));
  #child: ChildProcess | undefined;
  #client: Redis | undefined;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      SERVER,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--dbfilename',
        'dump.rdb',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    this.#child = child;
    const failed = once(child, 'error').then(([error]) => {
      throw new Error(`${SERVER} is needed for this test (apt-get install redis-server, or set SIGNIN_TEST_REDIS_SERVER)`, {
        cause: error,
      });
    });
    await Promise.race([failed, this.#waitForPing()]);
  }

  async #waitForPing(): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const probe = new Redis(this.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') {
          this.#client = probe;
          return;
        }
      } catch {
        probe.disconnect();
      }
      await sleep(50);
    }
    throw new Error(`redis-server did not answer on port ${this.port} within 10 s`);
  }

  /** What a client of this server sees now. */
  get client(): Redis {
    if (!this.#client) throw new Error('redis-server is not running');
    return this.#client;
  }

  /** SAVE, and the dump kept aside: the state a lagging replica or a backup would bring back. */
  async snapshot(): Promise<string> {
    await this.client.save();
    const kept = join(this.dir, 'snapshot.rdb');
    copyFileSync(join(this.dir, 'dump.rdb'), kept);
    return kept;
  }

  /** SHUTDOWN NOSAVE (nothing written since is kept), the snapshot put back, and the server started again. */
  async restore(snapshot: string): Promise<void> {
    await this.stop();
    copyFileSync(snapshot, join(this.dir, 'dump.rdb'));
    await this.start();
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    await this.#client?.call('SHUTDOWN', 'NOSAVE').catch(() => {}); // the connection closes as it answers
    this.#client?.disconnect();
    this.#client = undefined;
    await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

let pg: FreshPostgres;
let redis: PrivateRedis;
let config: ReturnType<typeof sharedConfig>;
let first: Instance;
let second: Instance;
let later: Instance | undefined;
beforeAll(async () => {
  pg = await freshPostgres();
  redis = new PrivateRedis(await freePort());
  await redis.start();
  const port = await freePort();
  config = sharedConfig(
    `http://127.0.0.1:${port}`,
    postgresStorage(pg.url, { url: redis.url, keyPrefix: PREFIX, commandTimeoutMs: 1000 }, 3000),
    { log: { level: 'silent' } },
  );
  first = await startInstance(config, port);
  second = await startInstance(config);
}, 60_000);
afterAll(() =>
  teardown(
    () => later?.stop(),
    () => second?.stop(),
    () => first?.stop(),
    () => redis?.remove(),
    () => pg?.drop(),
  ),
);

const creds = (client: TestClient) => ({ client_id: client.clientId, client_secret: client.clientSecret });
const revoke = (url: string, client: TestClient, token: string) =>
  postForm(`${url}/oauth/token/revoke`, { token, token_type_hint: 'access_token', ...creds(client) });
const introspect = (url: string, client: TestClient, token: string) =>
  postForm(`${url}/oauth/token/introspect`, { token, ...creds(client) });
/** The Redis record of a code or token, as the adapter keys it (adapters/redis/adapter.ts). */
const stored = (model: string, value: string) => redis.client.hgetall(`${PREFIX}${model}:${storageKey(value)}`);

describe('Redis restored to an older state', () => {
  it('does not redeem a code twice nor accept a revoked token again, on any instance', async () => {
    const { service } = first;
    const client = await createClient(service);
    const rp = await relyingParty(first.url, client);
    // A code issued, not yet redeemed.
    const pending = await authorize(first.url, rp, await createUser(service));
    // Tokens of another sign-in, refreshed once: two access tokens of one grant.
    const signedIn = await signIn(first.url, rp, await createUser(service));
    const refreshed = await refreshGrant(first.url, client, signedIn.tokens.refresh_token!);
    expect(refreshed.status).toBe(200);
    const older = signedIn.tokens.access_token;
    const newer = String(refreshed.json.access_token);
    // A server application's token (client_credentials).
    const serverApp = await service.context.clients.create({
      name: 'Facturation',
      description: 'Une application serveur',
      appType: 'server',
      redirectUris: [],
      scopes: [],
    });
    const machine = { clientId: serverApp.client.clientId, clientSecret: serverApp.clientSecret, redirectUri: '', scopes: [] };
    const machineToken = String(
      (await postForm(`${first.url}/oauth/token`, { grant_type: 'client_credentials', ...creds(machine) })).json.access_token,
    );
    // And a sign-in nobody touches: it must work throughout.
    const untouched = (await signIn(first.url, rp, await createUser(service))).tokens.access_token;

    const snapshot = await redis.snapshot();

    // After the snapshot: the code redeemed, the newer access token and the server application's revoked.
    const redeemed = await exchangeCode(first.url, client, pending);
    expect(redeemed.status).toBe(200);
    expect((await revoke(first.url, client, newer)).status).toBe(200);
    expect((await revoke(first.url, machine, machineToken)).status).toBe(200);
    expect((await userinfo(first.url, newer)).status).toBe(401);
    expect((await stored('AccessToken', newer)).payload).toBeUndefined();

    await redis.restore(snapshot);
    await waitUntilReady(first.url);
    await waitUntilReady(second.url);

    // What the older state holds: the code unused, the revoked tokens stored again, and the sign-in's.
    const code = await stored('AuthorizationCode', pending.callback.searchParams.get('code')!);
    expect(code.payload).toBeDefined();
    expect(code.consumed).toBeUndefined();
    for (const token of [older, newer]) expect((await stored('AccessToken', token)).payload).toBeDefined();
    expect((await stored('ClientCredentials', machineToken)).payload).toBeDefined();
    // What was issued after the snapshot is gone: Redis did go back.
    expect((await userinfo(first.url, String(redeemed.json.access_token))).status).toBe(401);
    expect((await userinfo(first.url, untouched)).status).toBe(200);

    // The code, on the instance that did not redeem it: a second redemption, refused.
    const again = await exchangeCode(second.url, client, pending);
    expect([again.status, again.json.error]).toEqual([400, 'invalid_grant']);

    // The revoked access token and every token its grant had issued, on both instances.
    for (const { url } of [first, second]) {
      for (const token of [newer, older]) {
        const info = await userinfo(url, token);
        expect([info.status, info.json.error]).toEqual([401, 'invalid_token']);
        expect((await introspect(url, client, token)).json.active).toBe(false);
      }
      expect((await introspect(url, machine, machineToken)).json.active).toBe(false);
      expect((await userinfo(url, untouched)).status).toBe(200);
    }
    // The grant's refresh token ended with the revocation, in Postgres: it stays ended.
    expect((await refreshGrant(second.url, client, String(refreshed.json.refresh_token))).json.error).toBe('invalid_grant');

    // An instance started now reads the revocations at start.
    later = await startInstance(config);
    expect((await userinfo(later.url, newer)).status).toBe(401);
    expect((await userinfo(later.url, older)).status).toBe(401);
    expect((await introspect(later.url, machine, machineToken)).json.active).toBe(false);
    expect((await userinfo(later.url, untouched)).status).toBe(200);
  });

  it('keeps the record out of reach of a dump: ids hashed, no token value in either table', async () => {
    const { service } = first;
    const client = await createClient(service);
    const rp = await relyingParty(first.url, client);
    const { tokens } = await signIn(first.url, rp, await createUser(service));
    expect((await revoke(first.url, client, tokens.access_token)).status).toBe(200);

    const dump = JSON.stringify([
      (await pg.db.query('SELECT * FROM revoked_tokens')).rows,
      (await pg.db.query('SELECT * FROM redeemed_codes')).rows,
    ]);
    expect(dump).toContain(storageKey(tokens.access_token));
    expect(dump).not.toContain(tokens.access_token);
    expect(dump).not.toContain(tokens.refresh_token!);
  });
});

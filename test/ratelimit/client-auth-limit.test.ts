// Failed client authentications at the token, revocation and introspection endpoints are limited per
// (client_id, IP) and per IP, in the shared counter store (SQL, or Redis when configured): past the
// limit the caller gets 429 with Retry-After, even with the right secret, while the same application
// from another address is not locked out. A counter store that cannot be reached is a 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, TEST_REDIS_URL, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { postForm } from '../support/flow.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { relayFor, type Relay } from '../storage/helpers/relay.ts';

const rateLimit = {
  clientAuthPerClient: { points: 3, windowSeconds: 600 },
  clientAuthPerIp: { points: 8, windowSeconds: 600 },
};

let ipCounter = 0;
/** A fresh client address (the service trusts one proxy, so X-Forwarded-For names the client). */
const newIp = (): string => `203.0.113.${(ipCounter += 1)}`;

const from = (ip: string) => ({ 'x-forwarded-for': ip, accept: 'application/json' });
const revoke = (svc: TestService, client: TestClient, secret: string, ip: string) =>
  postForm(`${svc.url}/oauth/token/revoke`, { token: 'not-a-token', client_id: client.clientId, client_secret: secret }, from(ip));
const tokenRequest = (svc: TestService, client: TestClient, secret: string, ip: string) =>
  postForm(
    `${svc.url}/oauth/token`,
    { grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: client.clientId, client_secret: secret },
    from(ip),
  );
const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function expectTooMany(res: Awaited<ReturnType<typeof postForm>>): void {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.json).toEqual({ error: 'invalid_request', error_description: 'too many failed client authentications, retry later' });
}

function limitsOn(store: string, start: () => Promise<TestService>, stop: () => Promise<void> = async () => {}) {
  describe(`client authentication limits (${store} counters)`, () => {
    let svc: TestService;
    let client: TestClient;
    beforeAll(async () => {
      svc = await start();
      client = await svc.createClient();
    });
    afterAll(async () => {
      await svc.stop();
      await stop();
    });

    it('answers 429 with Retry-After past the limit, even for the right secret from that IP', async () => {
      const ip = newIp();
      for (let i = 0; i < 3; i += 1) expect((await revoke(svc, client, 'wrong-secret', ip)).status).toBe(401);
      expectTooMany(await revoke(svc, client, 'wrong-secret', ip));
      expectTooMany(await revoke(svc, client, client.clientSecret, ip));
      // The pair is refused at every endpoint where the application authenticates.
      expectTooMany(await tokenRequest(svc, client, client.clientSecret, ip));
      expectTooMany(
        await postForm(
          `${svc.url}/oauth/token/introspect`,
          { token: 'x', client_id: client.clientId, client_secret: client.clientSecret },
          from(ip),
        ),
      );
    });

    it('does not lock the application out from another IP', async () => {
      const attacker = newIp();
      for (let i = 0; i < 5; i += 1) await revoke(svc, client, 'wrong-secret', attacker);
      expectTooMany(await revoke(svc, client, client.clientSecret, attacker));

      const application = newIp();
      expect((await revoke(svc, client, client.clientSecret, application)).status).toBe(200);
      // Authenticated: the engine goes on to the grant and finds the refresh token unknown.
      const token = await tokenRequest(svc, client, client.clientSecret, application);
      expect([token.status, token.json.error]).toEqual([400, 'invalid_grant']);
    });

    it('counts failures at the token endpoint and with HTTP Basic alike', async () => {
      const ip = newIp();
      expect((await tokenRequest(svc, client, 'wrong-secret', ip)).status).toBe(401);
      const basicHeaders = { ...from(ip), authorization: basic(client.clientId, 'wrong-secret') };
      expect((await postForm(`${svc.url}/oauth/token/revoke`, { token: 'x' }, basicHeaders)).status).toBe(401);
      expect((await revoke(svc, client, 'wrong-secret', ip)).status).toBe(401);
      const refused = await postForm(
        `${svc.url}/oauth/token/revoke`,
        { token: 'x' },
        { ...from(ip), authorization: basic(client.clientId, client.clientSecret) },
      );
      expectTooMany(refused);
      expect(refused.headers.get('www-authenticate')).toBeNull();
    });

    it('stops one IP trying many client ids, before the engine runs, and only that IP', async () => {
      const ip = newIp();
      for (let i = 0; i < 8; i += 1) {
        const unknown = await revoke(svc, { ...client, clientId: `no-such-client-${i}` }, 'whatever', ip);
        expect(unknown.status).toBe(401);
      }
      const other = await svc.createClient();
      expectTooMany(await revoke(svc, other, other.clientSecret, ip));
      expect((await revoke(svc, other, other.clientSecret, newIp())).status).toBe(200);
    });

    it('counts nothing for a successful authentication', async () => {
      const ip = newIp();
      for (let i = 0; i < 12; i += 1) expect((await revoke(svc, client, client.clientSecret, ip)).status).toBe(200);
    });
  });
}

limitsOn('SQL', () => startTestService({ trustProxy: true, rateLimit }));

let postgres: FreshPostgres;
limitsOn(
  'SQL on Postgres',
  async () => {
    postgres = await freshPostgres();
    return startTestService({ trustProxy: true, rateLimit, storage: { kind: 'postgres', postgres: { url: postgres.url } } });
  },
  () => postgres.drop(),
);

let redis: FreshRedis;
limitsOn(
  'Redis',
  async () => {
    redis = await freshRedis();
    return startTestService({ trustProxy: true, rateLimit, storage: { kind: 'embedded', dataDir: 'memory://', redis: redis.config } });
  },
  () => redis.cleanup(),
);

describe('client authentication limits when the counter store is unreachable', () => {
  let svc: TestService;
  let relay: Relay;
  let redisPrefix: FreshRedis;
  beforeAll(async () => {
    redisPrefix = await freshRedis();
    const through = await relayFor(TEST_REDIS_URL, 6379);
    relay = through.relay;
    svc = await startTestService({
      trustProxy: true,
      rateLimit,
      storage: { kind: 'embedded', dataDir: 'memory://', redis: { ...redisPrefix.config, url: through.url, commandTimeoutMs: 500 } },
    });
  });
  afterAll(async () => {
    await svc.stop();
    await relay.close();
    await redisPrefix.cleanup();
  });

  it('answers 503 temporarily_unavailable with Retry-After, not 500', async () => {
    const client = await svc.createClient();
    expect((await revoke(svc, client, client.clientSecret, newIp())).status).toBe(200);
    await relay.cut();
    const res = await revoke(svc, client, client.clientSecret, newIp());
    expect(res.status).toBe(503);
    expect(res.json.error).toBe('temporarily_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    await relay.restore();
  });
});

// Two instances on one Postgres and one Redis, as a deployment runs them: an address refused on one is
// refused on the other at once, although neither reads the counters for an address without failures.
describe('client authentication limits across instances (Redis counters)', () => {
  let postgresShared: FreshPostgres;
  let redisShared: FreshRedis;
  let a: TestService;
  let b: TestService;
  let client: TestClient;
  beforeAll(async () => {
    postgresShared = await freshPostgres();
    redisShared = await freshRedis();
    const storage = { kind: 'postgres', postgres: { url: postgresShared.url }, redis: redisShared.config } as const;
    a = await startTestService({ trustProxy: true, rateLimit, storage });
    b = await startTestService({ trustProxy: true, rateLimit, storage });
    client = await a.createClient();
  });
  afterAll(async () => {
    await a.stop();
    await b.stop();
    await redisShared.cleanup();
    await postgresShared.drop();
  });

  it('refuses on one instance the address that failed on the other', async () => {
    const ip = newIp();
    expect((await revoke(b, client, client.clientSecret, ip)).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await revoke(a, client, 'wrong-secret', ip)).status).toBe(401);
    // The other instance hears of a failure within milliseconds (failure-watch.ts); a request may overtake it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expectTooMany(await revoke(b, client, client.clientSecret, ip));
    expect((await revoke(b, client, client.clientSecret, newIp())).status).toBe(200);
  });

  it('reads no counter for an address without failures, and reads them once it has failed', async () => {
    const monitor = await redisShared.redis.monitor();
    const reads: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      // This file's keys only: MONITOR sees every client of the server, another test file's or a benchmark's too.
      const key = args[1] ?? '';
      if (key.startsWith(redisShared.keyPrefix) && key.includes('rl:client-auth')) reads.push(args[0]!.toLowerCase());
    });
    try {
      const ip = newIp();
      for (let i = 0; i < 3; i += 1) expect((await revoke(b, client, client.clientSecret, ip)).status).toBe(200);
      expect((await revoke(a, client, 'wrong-secret', ip)).status).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reads.filter((command) => command === 'get')).toEqual([]);

      expect((await revoke(b, client, client.clientSecret, ip)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reads.filter((command) => command === 'get').length).toBeGreaterThan(0);
    } finally {
      monitor.disconnect();
    }
  });
});

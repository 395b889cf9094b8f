// One deadline for all the storage work of a request. Postgres stalls (a relay keeps the connections open
// and forwards nothing): every call would wait for its own timeout (3 s to connect, 5 s for a statement), and
// a request making several in a row used to wait for their sum (11 to 13 s for an interaction resumed). With
// `storage.requestDeadlineMs` shorter than any single timeout, every kind of request answers within the
// deadline and a second: 503 JSON on the protocol endpoints, the outage page for people; discovery, which
// reads no store, answers 200 throughout. Once the relay forwards again, everything works.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardDatabase } from '../../adapters/guard.ts';
import type { Database } from '../../adapters/sql/database.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { openPostgres } from '../../adapters/sql/postgres.ts';
import { withStorageDeadline } from '../../adapters/storage-deadline.ts';
import { isStorageUnavailable } from '../../adapters/unavailable.ts';
import { createSignInService } from '../../src/service.ts';
import { Browser, isPage } from '../support/browser.ts';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';
import { authorize } from '../support/flow.ts';
import { createClient, createUser, freePort, serveInstance, sharedConfig, teardown, type Instance } from './helpers/instance.ts';
import { expectRecovered, prepare, waitUntilReady, type Material } from './helpers/outage.ts';
import { relayFor, type Relay } from './helpers/relay.ts';

const DEADLINE_MS = 1500;
// Each call's own bounds, the defaults, both longer than the deadline: only the deadline can answer in time.
const POOL = { max: 10, connectionTimeoutMs: 3000, statementTimeoutMs: 5000 };

let pg: FreshPostgres;
let relay: Relay;
let instance: Instance;
const logChunks: string[] = [];
const logLines = (): Array<Record<string, unknown>> =>
  logChunks.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  pg = await freshPostgres();
  const through = await relayFor(pg.url, 5432);
  relay = through.relay;
  const port = await freePort();
  // Everything in Postgres (no Redis): sessions and interactions stall with the rest.
  const config = sharedConfig(
    `http://127.0.0.1:${port}`,
    { kind: 'postgres', postgres: { url: through.url, pool: POOL }, requestDeadlineMs: DEADLINE_MS },
    { log: { level: 'info', pretty: false } },
  );
  const service = await createSignInService(config, {
    sweepIntervalSeconds: 0,
    logDestination: { write: (chunk: string | Buffer) => void logChunks.push(String(chunk)) },
  });
  instance = await serveInstance(service, port);
});
afterAll(() =>
  teardown(
    () => instance?.stop(),
    () => relay?.close(),
    () => pg?.drop(),
  ),
);

interface Answer {
  name: string;
  status: number;
  ms: number;
  type: string;
  body: string;
}

/** Everything a client, a browser in a sign-in and a signed-in user ask for, each timed. */
function requests(url: string, m: Material, signedIn: Browser): Array<[string, () => Promise<Answer>]> {
  const uid = new URL(m.login.url).pathname.split('/').pop()!;
  const creds = { client_id: m.client.clientId, client_secret: m.client.clientSecret };
  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ ...fields, ...creds }),
  });
  const viaFetch = (name: string, run: () => Promise<Response>): [string, () => Promise<Answer>] => [
    name,
    async () => {
      const started = performance.now();
      const res = await run();
      const body = await res.text();
      return { name, status: res.status, ms: Math.round(performance.now() - started), type: res.headers.get('content-type') ?? '', body };
    },
  ];
  const viaBrowser = (
    name: string,
    browser: Browser,
    run: (agent: Browser['agent']) => PromiseLike<{ status: number; text: string; headers: Record<string, string> }>,
  ): [string, () => Promise<Answer>] => [
    name,
    async () => {
      const started = performance.now();
      const res = await run(browser.agent);
      return {
        name,
        status: res.status,
        ms: Math.round(performance.now() - started),
        type: String(res.headers['content-type'] ?? ''),
        body: res.text,
      };
    },
  ];
  const fr = { 'accept-language': 'fr-FR,fr;q=0.9', accept: 'text/html' };
  return [
    viaFetch('discovery', () => fetch(`${url}/.well-known/openid-configuration`)),
    viaFetch('authorize (new sign-in)', async () =>
      fetch((await m.rp.start()).url, { headers: { accept: 'text/html', 'accept-language': 'en' }, redirect: 'manual' }),
    ),
    viaBrowser('interaction page', m.login.browser, (agent) => agent.get(`/interaction/${uid}`).set(fr).redirects(0)),
    viaBrowser('interaction login form', m.login.browser, (agent) =>
      agent
        .post(`/interaction/${uid}/login`)
        .set(fr)
        .type('form')
        .send(new URLSearchParams({ email: m.user.email, password: m.user.password }).toString())
        .redirects(0),
    ),
    viaBrowser('authorize resumed', m.login.browser, (agent) => agent.get(`/oauth/authorize/${uid}`).set(fr).redirects(0)),
    viaFetch('token (code)', () =>
      fetch(
        `${url}/oauth/token`,
        form({ grant_type: 'authorization_code', code: m.code.value, redirect_uri: m.client.redirectUri, code_verifier: m.code.verifier }),
      ),
    ),
    viaFetch('token (refresh)', () => fetch(`${url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: m.refreshToken }))),
    viaFetch('userinfo', () =>
      fetch(`${url}/oauth/userinfo`, { headers: { authorization: `Bearer ${m.accessToken}`, accept: 'application/json' } }),
    ),
    viaBrowser('account page', signedIn, (agent) => agent.get('/account').set(fr).redirects(0)),
  ];
}

function expectOutageAnswer(a: Answer): void {
  expect(a.status, `${a.name}: ${a.body.slice(0, 300)}`).toBe(503);
  expect(a.ms, `${a.name} answered after ${a.ms} ms`).toBeLessThan(DEADLINE_MS + 1000);
  expect(a.body, a.name).not.toMatch(/at \w+ \(|node_modules|Error:|access_token|id_token/);
  if (a.type.includes('json')) {
    expect(JSON.parse(a.body)).toMatchObject({ error: 'temporarily_unavailable' });
  } else {
    expect(a.type, a.name).toMatch(/text\/html/);
    expect(a.body, a.name).toMatch(/momentanément indisponible|temporarily unavailable/);
  }
}

const summary = (answers: Answer[]) => answers.map((a) => `${a.name} ${a.status} in ${a.ms} ms`).join('; ');

describe('a request against a stalled Postgres', () => {
  it('answers within its storage deadline, whatever it asks for, and everything works again once Postgres answers', async () => {
    const material = await prepare(instance);
    // A second user signed in through the service: the account page has a session to look up.
    const user = await createUser(instance.service);
    const { browser: signedIn } = await authorize(instance.url, material.rp, user);
    expect(isPage(await signedIn.open('/account'))).toBe(true);
    // A client made before the stall, so that the client cache is not what is being measured.
    await createClient(instance.service);
    const before = logLines().length;

    relay.stall();
    const all = requests(instance.url, material, signedIn);
    // All at once, as they would come, and then one after the other (each finding the pool's connections held).
    const together = await Promise.all(all.map(([, run]) => run()));
    console.log('Postgres stalled, together:', summary(together));
    const inTurn: Answer[] = [];
    for (const [, run] of all) inTurn.push(await run());
    console.log('Postgres stalled, one after the other:', summary(inTurn));

    for (const answers of [together, inTurn]) {
      const [discovery, ...others] = answers;
      expect(discovery.status).toBe(200);
      expect(discovery.ms).toBeLessThan(1000);
      for (const a of others) expectOutageAnswer(a);
      const byName = Object.fromEntries(answers.map((a) => [a.name, a]));
      for (const name of ['token (code)', 'token (refresh)', 'userinfo']) expect(byName[name].type, name).toMatch(/json/);
      expect(byName['authorize (new sign-in)'].body).toContain('lang="en"');
      expect(byName['interaction page'].body).toContain('lang="fr"');
    }
    expect((await fetch(`${instance.url}/readyz`)).status).toBe(503);

    // The log: no stack trace, and the cause of the outage once, not once per request.
    const lines = logLines().slice(before);
    expect(lines.filter((l) => l.event === 'error.unexpected' || JSON.stringify(l).includes('    at '))).toEqual([]);
    expect(lines.filter((l) => l.msg === 'storage outage')).toHaveLength(1);
    expect(lines.filter((l) => l.event === 'storage.unavailable').length).toBeGreaterThanOrEqual(others(together).length);

    await relay.restore();
    const recoveredMs = await waitUntilReady(instance.url);
    console.log(`Postgres answering again: /readyz 200 after ${recoveredMs} ms`);
    await expectRecovered(instance.url, material);
    const account = await signedIn.open('/account');
    expect(isPage(account) && account.status).toBe(200);
  });
});

const others = (answers: Answer[]) => answers.filter((a) => a.name !== 'discovery');

describe('a transaction the deadline cuts short', () => {
  const stores: Record<string, () => Promise<Database>> = {
    postgres: async () => guardDatabase(await openPostgres({ url: pg.url, max: 2 })),
    embedded: async () => guardDatabase(await openPglite('memory://')),
  };
  for (const [kind, open] of Object.entries(stores)) {
    it(`commits nothing on ${kind}, once the request's time has run out`, async () => {
      const db = await open();
      try {
        const table = `deadline_${kind}`;
        await db.exec(`CREATE TABLE IF NOT EXISTS ${table} (n int)`);
        const insert = (tx: { query(sql: string): Promise<unknown> }) => tx.query(`INSERT INTO ${table} VALUES (1)`);
        const cutShort = async (work: (tx: { query(sql: string): Promise<unknown> }) => Promise<void>) => {
          const started = performance.now();
          const error = await withStorageDeadline(200, () => db.transaction(work)).catch((e: unknown) => e);
          expect(isStorageUnavailable(error)).toBe(true);
          // At the deadline, not once the transaction's work is over (a second later).
          expect(performance.now() - started).toBeLessThan(900);
        };
        // Its next statement comes after the deadline: refused, and the transaction rolled back.
        await cutShort(async (tx) => {
          await insert(tx);
          await sleep(1000);
          await insert(tx);
        });
        await sleep(1100); // the first one's rollback done
        // It has no statement left, but returns after the deadline: rolled back rather than committed
        // behind the 503 the request answered.
        await cutShort(async (tx) => {
          await insert(tx);
          await sleep(1000);
        });
        await sleep(1100);
        const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
        expect(rows[0].n).toBe(0);
      } finally {
        await db.close();
      }
    });
  }
});

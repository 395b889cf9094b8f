// Scale-out: two instances sharing one Postgres and one Redis behind one origin behave as one service,
// whichever instance each step of a flow lands on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../support/databases.ts';
import { Browser, signInAndConsent } from '../support/browser.ts';
import { postForm, userinfo } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { steeringFront, type Front } from './helpers/front.ts';
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

let pg: FreshPostgres;
let redis: FreshRedis;
let front: Front;
const instances: Instance[] = [];
/** Which instance serves which step: the authorize request on the first, the pages on the second... */
let route = (_path: string): number => 0;

beforeAll(async () => {
  pg = await freshPostgres();
  redis = await freshRedis();
  const port = await freePort();
  const config = sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(pg.url, redis.config, 3000));
  // Two createSignInService on two ports, same config: signing keys come from the database (the first
  // one creates them), cookie keys from the config.
  instances.push(await startInstance(config), await startInstance(config));
  front = await steeringFront(
    port,
    () => instances.map((i) => i.port),
    (req) => route(new URL(req.url ?? '/', 'http://x').pathname),
  );
});
afterAll(() =>
  teardown(
    () => front?.close(),
    ...instances.map((i) => () => i.stop()),
    () => redis?.cleanup(),
    () => pg?.drop(),
  ),
);

describe('two instances behind one origin', () => {
  it('serve one flow whose steps alternate between them', async () => {
    const [first, second] = instances;
    expect(first.port).not.toBe(second.port);
    const client = await createClient(first.service);
    const user = await createUser(second.service);

    route = (path) => {
      if (path === '/oauth/authorize') return 0; // authorize on the first
      if (path.startsWith('/interaction/')) return 1; // log in and consent on the second
      if (path.startsWith('/oauth/authorize/')) return 0; // the engine resumes the authorization on the first
      if (path === '/oauth/token') return 0; // the code is exchanged on the first
      if (path === '/oauth/userinfo' || path === '/oauth/token/revoke') return 1; // userinfo and revoke on the second
      return Math.round(Math.random()); // discovery, JWKS: either
    };
    const rp = await relyingParty(front.url, client);
    const start = await rp.start();
    const arrival = await signInAndConsent(new Browser(front.url), start.url, user);
    const tokens = await rp.redeem(arrival.callback, start); // ID token checked against the JWKS of either instance
    const info = await userinfo(front.url, tokens.access_token);
    expect(info.status).toBe(200);
    expect(info.json.sub).toBe(tokens.claims()!.sub);
    expect(info.json.email).toBe(user.email);

    const creds = { client_id: client.clientId, client_secret: client.clientSecret };
    expect((await postForm(`${front.url}/oauth/token/revoke`, { token: tokens.access_token, ...creds })).status).toBe(200);
    expect((await userinfo(front.url, tokens.access_token)).status).toBe(401);

    console.log(
      'scale-out, served by the first:',
      front.served[0]?.filter((r) => !r.includes('well-known') && !r.includes('jwks')),
    );
    console.log(
      'scale-out, served by the second:',
      front.served[1]?.filter((r) => !r.includes('well-known') && !r.includes('jwks')),
    );
    expect(front.served[0]).toEqual(expect.arrayContaining(['GET /oauth/authorize', 'POST /oauth/token']));
    expect(front.served[1]).toEqual(expect.arrayContaining(['GET /oauth/userinfo', 'POST /oauth/token/revoke']));
    expect(front.served[1]!.some((r) => /^POST \/interaction\/[^/]+\/login$/.test(r))).toBe(true);
    expect(front.served[1]!.some((r) => /^POST \/interaction\/[^/]+\/consent$/.test(r))).toBe(true);
  });

  it('share the signing keys', async () => {
    const kids = await Promise.all(
      instances.map(async (i) =>
        ((await (await fetch(`${i.url}/oauth/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid).sort(),
      ),
    );
    expect(kids[0]).toEqual(kids[1]);
  });
});

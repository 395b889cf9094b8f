// An application with a signed-in user, ready to mint codes and tokens quickly: the browser signs in
// and consents once, and each later authorization comes straight back with a code (or asks for consent
// again, when a reuse revoked the grant).
import { Browser, signInAndConsent } from '../support/browser.ts';
import { exchangeCode, refreshGrant, userinfo } from '../support/flow.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import type { TestClient, TestUser } from '../support/service.ts';

export interface ServiceUnderTest {
  url: string;
  createUser(): Promise<TestUser & { id: string }>;
  createClient(): Promise<TestClient>;
}

export interface Flow {
  callback: URL;
  start: { verifier: string };
}

export interface SignedInApp {
  client: TestClient;
  user: TestUser & { id: string };
  rp: RelyingParty;
  browser: Browser;
  /** A fresh authorization code (with its verifier). */
  code(): Promise<Flow>;
  exchange(flow: Flow): ReturnType<typeof exchangeCode>;
  /** A fresh code exchanged: the token response. */
  tokens(): Promise<{ access_token: string; refresh_token: string }>;
  refresh(token: string): ReturnType<typeof refreshGrant>;
  userinfo(accessToken: string): ReturnType<typeof userinfo>;
}

export async function signedInApp(svc: ServiceUnderTest): Promise<SignedInApp> {
  const client = await svc.createClient();
  const user = await svc.createUser();
  const rp = await relyingParty(svc.url, client);
  const browser = new Browser(svc.url);
  const app: SignedInApp = {
    client,
    user,
    rp,
    browser,
    async code() {
      const start = await rp.start();
      const { callback } = await signInAndConsent(browser, start.url, user);
      return { callback, start };
    },
    exchange: (flow) => exchangeCode(svc.url, client, flow),
    async tokens() {
      const res = await app.exchange(await app.code());
      if (res.status !== 200) throw new Error(`code exchange answered ${res.status}: ${res.text}`);
      return { access_token: String(res.json.access_token), refresh_token: String(res.json.refresh_token) };
    },
    refresh: (token) => refreshGrant(svc.url, client, token),
    userinfo: (accessToken) => userinfo(svc.url, accessToken),
  };
  return app;
}

/** Counts of each value, for the lines the tests print. */
export const tally = (values: Array<string | number>): Record<string, number> =>
  values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [String(v)]: (acc[String(v)] ?? 0) + 1 }), {});

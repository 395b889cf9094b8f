// What a client, a browser and a load balancer see while a storage server is cut, and once it is back.
import { expect } from 'vitest';
import { Browser, isPage } from '../../support/browser.ts';
import { authorize, postForm, signIn } from '../../support/flow.ts';
import { relyingParty, type RelyingParty } from '../../support/relying-party.ts';
import type { TestClient } from '../../support/service.ts';
import type { Instance } from './instance.ts';
import { createClient, createUser } from './instance.ts';

export interface Material {
  client: TestClient;
  rp: RelyingParty;
  user: { email: string; password: string };
  code: { value: string; verifier: string };
  accessToken: string;
  refreshToken: string;
  /** A login page reached before the outage, in a browser holding its cookies. */
  login: { browser: Browser; url: string };
}

/** Everything the probes need, made while storage works. */
export async function prepare(instance: Instance): Promise<Material> {
  const client = await createClient(instance.service);
  const user = await createUser(instance.service);
  const rp = await relyingParty(instance.url, client);
  const { tokens } = await signIn(instance.url, rp, user);
  const pending = await authorize(instance.url, rp, user);
  const browser = new Browser(instance.url);
  const page = await browser.open((await rp.start()).url);
  if (!isPage(page) || page.status !== 200) throw new Error('no login page');
  return {
    client,
    rp,
    user,
    code: { value: pending.callback.searchParams.get('code')!, verifier: pending.start.verifier },
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token!,
    login: { browser, url: page.url },
  };
}

export interface Probe {
  name: string;
  status: number;
  ms: number;
  body: string;
  type: string;
}

async function timed(name: string, run: () => Promise<Response>): Promise<Probe> {
  const started = performance.now();
  const res = await run();
  const body = await res.text();
  return { name, status: res.status, ms: Math.round(performance.now() - started), body, type: res.headers.get('content-type') ?? '' };
}

/** The requests of the issue, each timed: token (code and refresh), userinfo, revoke, login page, authorize. */
export async function probe(url: string, m: Material): Promise<Probe[]> {
  const creds = { client_id: m.client.clientId, client_secret: m.client.clientSecret };
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields),
  });
  const loginPage = async (): Promise<Response> => {
    // Through the browser that holds the interaction's cookies, as a user reloading the page would.
    const res = await m.login.browser.agent.get(new URL(m.login.url).pathname).set('accept-language', 'fr-FR,fr;q=0.9').redirects(0);
    return new Response(res.text, { status: res.status, headers: { 'content-type': String(res.headers['content-type'] ?? '') } });
  };
  return Promise.all([
    timed('token (code)', () =>
      fetch(
        `${url}/oauth/token`,
        form({
          grant_type: 'authorization_code',
          code: m.code.value,
          redirect_uri: m.client.redirectUri,
          code_verifier: m.code.verifier,
          ...creds,
        }),
      ),
    ),
    timed('token (refresh)', () =>
      fetch(`${url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: m.refreshToken, ...creds })),
    ),
    timed('userinfo', () =>
      fetch(`${url}/oauth/userinfo`, { headers: { authorization: `Bearer ${m.accessToken}`, accept: 'application/json' } }),
    ),
    timed('revoke', () => fetch(`${url}/oauth/token/revoke`, form({ token: m.accessToken, token_type_hint: 'access_token', ...creds }))),
    timed('login page', loginPage),
    timed('authorize', async () =>
      fetch((await m.rp.start()).url, { headers: { accept: 'text/html', 'accept-language': 'en' }, redirect: 'manual' }),
    ),
  ]);
}

/** During the outage: every probe a quick 503, JSON for the protocol, a localized page for the browser. */
export function expectFailedClosed(probes: Probe[], withinMs: number): void {
  for (const p of probes) {
    expect(p.status, `${p.name}: ${p.body.slice(0, 300)}`).toBe(503);
    expect(p.ms, p.name).toBeLessThan(withinMs);
    expect(p.body, p.name).not.toMatch(/at \w+ \(|node_modules|Error:|access_token|id_token/);
    if (p.type.includes('json')) {
      const json = JSON.parse(p.body) as Record<string, unknown>;
      expect(Object.keys(json).sort(), p.name).toEqual(['error', 'error_description']);
      expect(json.error, p.name).toBe('temporarily_unavailable');
    } else {
      expect(p.type, p.name).toMatch(/text\/html/);
    }
  }
  const byName = Object.fromEntries(probes.map((p) => [p.name, p]));
  for (const name of ['token (code)', 'token (refresh)', 'userinfo', 'revoke']) expect(byName[name].type, name).toMatch(/json/);
  expect(byName['login page'].body).toContain('lang="fr"');
  expect(byName['login page'].body).toContain('momentanément indisponible');
  expect(byName.authorize.body).toContain('lang="en"');
  expect(byName.authorize.body).toContain('temporarily unavailable');
}

/** After the outage: the same requests work again, in the same process. */
export async function expectRecovered(url: string, m: Material): Promise<void> {
  const creds = { client_id: m.client.clientId, client_secret: m.client.clientSecret };
  const info = await fetch(`${url}/oauth/userinfo`, { headers: { authorization: `Bearer ${m.accessToken}` } });
  expect(info.status).toBe(200);
  const refreshed = await postForm(`${url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: m.refreshToken, ...creds });
  expect(refreshed.status).toBe(200);
  const page = await m.login.browser.open(m.login.url);
  expect(isPage(page) && page.status).toBe(200);
  const { tokens } = await signIn(url, m.rp, m.user);
  expect(tokens.access_token).toBeTruthy();
  const revoked = await postForm(`${url}/oauth/token/revoke`, { token: String(refreshed.json.access_token), ...creds });
  expect(revoked.status).toBe(200);
}

/** Polls /readyz until it answers 200; returns how long that took. */
export async function waitUntilReady(url: string, timeoutMs = 15_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const res = await fetch(`${url}/readyz`).catch(() => undefined);
    if (res?.status === 200) return Math.round(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('not ready again');
}

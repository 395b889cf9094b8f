// One complete sign-in as a test needs it: start at the application, sign in and consent in the
// browser, redeem the code with the application's credentials.
import { Browser, signInAndConsent, type Arrival } from './browser.ts';
import type { RelyingParty } from './relying-party.ts';

export interface FlowOptions {
  params?: Record<string, string>;
  scopes?: string[];
  browser?: Browser;
}

export async function authorize(
  serviceUrl: string,
  rp: RelyingParty,
  user: { email: string; password: string },
  options: FlowOptions = {},
) {
  const browser = options.browser ?? new Browser(serviceUrl);
  const start = await rp.start(options.params);
  const arrival: Arrival = await signInAndConsent(browser, start.url, user, { scopes: options.scopes });
  return { ...arrival, start, browser };
}

export async function signIn(serviceUrl: string, rp: RelyingParty, user: { email: string; password: string }, options: FlowOptions = {}) {
  const flow = await authorize(serviceUrl, rp, user, options);
  const tokens = await rp.redeem(flow.callback, flow.start);
  return { ...flow, tokens };
}

/** A raw form POST to a token-style endpoint, as `curl -d` would send it. */
export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: the test inspecting it will say so
  }
  return { status: res.status, json, text, headers: res.headers };
}

/**
 * The code exchange of the spec's section 4.2, one form field per parameter (as `curl -d` sends them),
 * for the code on `flow`'s callback. `overrides` changes or, with `undefined`, leaves out a field.
 */
export function exchangeCode(
  serviceUrl: string,
  client: { clientId: string; clientSecret: string; redirectUri: string },
  flow: { callback: URL; start: { verifier: string } },
  overrides: Record<string, string | undefined> = {},
  headers: Record<string, string> = {},
) {
  const fields: Record<string, string | undefined> = {
    grant_type: 'authorization_code',
    code: flow.callback.searchParams.get('code') ?? '',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uri: client.redirectUri,
    code_verifier: flow.start.verifier,
    ...overrides,
  };
  const present = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return postForm(`${serviceUrl}/oauth/token`, Object.fromEntries(present), headers);
}

/** The refresh grant, with the client's secret in the body. */
export function refreshGrant(serviceUrl: string, client: { clientId: string; clientSecret: string }, refreshToken: string) {
  return postForm(`${serviceUrl}/oauth/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

export async function userinfo(serviceUrl: string, accessToken: string) {
  const res = await fetch(`${serviceUrl}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

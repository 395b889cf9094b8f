import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, signInAndConsent } from '../support/browser.ts';
import { postForm } from '../support/flow.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { VALID_APP, registerApp, signInToPortal } from './support.ts';

const decode = (html: string) =>
  html
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const block = (html: string, id: string) => decode(new RegExp(`<pre id="${id}">([\\s\\S]*?)</pre>`).exec(html)![1]);

describe('portal: integration help', () => {
  let ts: TestService;
  beforeAll(async () => {
    ts = await startTestService();
  });
  afterAll(() => ts.stop());

  it('gives working URLs and curl commands with this client filled in', async () => {
    const owner = await signInToPortal(ts);
    const { clientId, clientSecret, page } = await registerApp(owner, {
      ...VALID_APP,
      redirect_uris: 'https://app.example.org/callback?from=portal',
    });
    const html = page.text;
    expect(block(html, 'help-discovery')).toBe(`${ts.url}/.well-known/openid-configuration`);
    const discovery = await fetch(block(html, 'help-discovery'));
    expect(discovery.status).toBe(200);

    // The authorize URL, with the placeholders replaced, starts a real sign-in.
    const verifier = randomBytes(32).toString('base64url');
    const authorize = block(html, 'help-authorize')
      .replace('STATE', 'xyz')
      .replace('CODE_CHALLENGE', createHash('sha256').update(verifier).digest('base64url'));
    expect(authorize).toContain(`client_id=${clientId}`);
    expect(authorize).toContain('scope=openid%20email%20profile');
    const user = await ts.createUser();
    const { callback } = await signInAndConsent(new Browser(ts.url), authorize, user);
    expect(callback.searchParams.get('state')).toBe('xyz');

    // The token command: one -d per parameter, each sent as written.
    const token = block(html, 'help-token');
    expect(token.split('\n')[0]).toBe(`curl -X POST ${ts.url}/oauth/token \\`);
    const fields = [...token.matchAll(/^ {2}-d ('?)([^=]+)=(.*?)\1(?: \\)?$/gm)].map((m) => [m[2], m[3]]);
    expect(fields.map(([name]) => name)).toEqual(['grant_type', 'code', 'redirect_uri', 'code_verifier', 'client_id', 'client_secret']);
    const values: Record<string, string> = {
      CODE: callback.searchParams.get('code')!,
      CODE_VERIFIER: verifier,
      CLIENT_SECRET: clientSecret,
    };
    // What curl -d sends is the text as typed: a urlencoded body is decoded by the server.
    const body = fields.map(([name, value]) => `${name}=${values[value] ?? value}`).join('&');
    const res = await fetch(`${ts.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const tokens = (await res.json()) as Record<string, string>;
    expect(res.status, JSON.stringify(tokens)).toBe(200);

    const userinfo = block(html, 'help-userinfo');
    expect(userinfo).toBe(`curl ${ts.url}/oauth/userinfo \\\n  -H 'Authorization: Bearer ACCESS_TOKEN'`);
    const info = await fetch(`${ts.url}/oauth/userinfo`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(info.status).toBe(200);

    const refresh = block(html, 'help-refresh');
    expect(refresh).toContain(`-d client_id=${clientId}`);
    const refreshed = await postForm(`${ts.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(refreshed.status).toBe(200);
  });
});

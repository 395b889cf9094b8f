// Errors at the token endpoint: RFC 6749 §5.2 JSON, 401 invalid_client for bad credentials,
// invalid_grant for codes that are reused, foreign or bound to another redirect URI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { authorize, postForm, userinfo } from '../support/flow.ts';

let svc: TestService;
let client: TestClient;
let user: { email: string; password: string };
beforeAll(async () => {
  svc = await startTestService();
  client = await svc.createClient();
  user = await svc.createUser();
});
afterAll(() => svc.stop());

async function freshCode() {
  const rp = await relyingParty(svc.url, client);
  const flow = await authorize(svc.url, rp, user);
  return { code: flow.callback.searchParams.get('code')!, verifier: flow.start.verifier };
}

const exchange = (fields: Record<string, string>, headers?: Record<string, string>) => postForm(`${svc.url}/oauth/token`, fields, headers);

function codeFields(c: { code: string; verifier: string }, over: Record<string, string> = {}) {
  return {
    grant_type: 'authorization_code',
    code: c.code,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uri: client.redirectUri,
    code_verifier: c.verifier,
    ...over,
  };
}

describe('token endpoint errors', () => {
  it('answers 401 invalid_client for a wrong secret, with no token', async () => {
    const res = await exchange(codeFields(await freshCode(), { client_secret: 'w'.repeat(48) }));
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
    expect(res.json).not.toHaveProperty('access_token');
  });

  it('answers 401 invalid_client for a missing secret', async () => {
    const fields = codeFields(await freshCode());
    delete (fields as Partial<typeof fields>).client_secret;
    const res = await exchange(fields);
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
  });

  it('does not accept the stored hash as the secret', async () => {
    const stored = await svc.service.context.clients.get(client.clientId);
    const res = await exchange(codeFields(await freshCode(), { client_secret: stored!.secretHash }));
    expect(res.status).toBe(401);
  });

  it('redeems a code once; a second redemption fails and revokes what the first issued', async () => {
    const c = await freshCode();
    const first = await exchange(codeFields(c));
    expect(first.status).toBe(200);
    expect((await userinfo(svc.url, String(first.json.access_token))).status).toBe(200);

    const second = await exchange(codeFields(c));
    expect(second.status).toBe(400);
    expect(second.json.error).toBe('invalid_grant');
    expect((await userinfo(svc.url, String(first.json.access_token))).status).toBe(401);
    const refresh = await exchange({
      grant_type: 'refresh_token',
      refresh_token: String(first.json.refresh_token),
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(refresh.json.error).toBe('invalid_grant');
  });

  it('refuses a code of application A redeemed by application B', async () => {
    const other = await svc.createClient();
    const res = await exchange(
      codeFields(await freshCode(), { client_id: other.clientId, client_secret: other.clientSecret, redirect_uri: other.redirectUri }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('refuses a redirect_uri that differs from the authorization request', async () => {
    const res = await exchange(codeFields(await freshCode(), { redirect_uri: `${client.redirectUri}/other` }));
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('answers unsupported_grant_type as JSON', async () => {
    const res = await exchange({ grant_type: 'password', client_id: client.clientId, client_secret: client.clientSecret });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('unsupported_grant_type');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('stores authorization codes for 60 seconds at most', async () => {
    await freshCode();
    const res = await svc.service.context.db.query<{ left: number }>(
      `SELECT max(extract(epoch FROM expires_at - now()))::float AS left FROM oidc_models WHERE model = 'AuthorizationCode'`,
    );
    expect(Number(res.rows[0].left)).toBeGreaterThan(0);
    expect(Number(res.rows[0].left)).toBeLessThanOrEqual(60);
  });
});

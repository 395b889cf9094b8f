// Revocation (RFC 7009) and introspection for resource servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { postForm, signIn, userinfo, refreshGrant } from '../support/flow.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const revoke = (client: TestClient, token: string, hint?: string) =>
  postForm(`${svc.url}/oauth/token/revoke`, {
    token,
    ...(hint ? { token_type_hint: hint } : {}),
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });

async function tokensFor() {
  const client = await svc.createClient();
  const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
  return { client, tokens };
}

describe('revocation', () => {
  it('answers 200 for an unknown token', async () => {
    const client = await svc.createClient();
    const res = await revoke(client, 'not-a-token-we-ever-issued');
    expect(res.status).toBe(200);
  });

  it('revokes an access token: userinfo refuses it afterwards', async () => {
    const { client, tokens } = await tokensFor();
    expect((await revoke(client, tokens.access_token, 'access_token')).status).toBe(200);
    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(401);
  });

  it('does not let one application revoke the tokens of another', async () => {
    const { tokens } = await tokensFor();
    const intruder = await svc.createClient();
    const res = await revoke(intruder, tokens.access_token);
    expect(res.status).toBe(200);
    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(200);
  });

  it('ends the grant when a refresh token is revoked', async () => {
    const { client, tokens } = await tokensFor();
    expect((await revoke(client, tokens.refresh_token!, 'refresh_token')).status).toBe(200);
    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(401);
    const res = await refreshGrant(svc.url, client, tokens.refresh_token!);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('requires client authentication: 401 invalid_client without the secret', async () => {
    const { client, tokens } = await tokensFor();
    const res = await postForm(`${svc.url}/oauth/token/revoke`, { token: tokens.access_token, client_id: client.clientId });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(200);
  });
});

describe('introspection', () => {
  it('tells an authenticated client whether a token is active', async () => {
    const { client, tokens } = await tokensFor();
    const res = await postForm(`${svc.url}/oauth/token/introspect`, {
      token: tokens.access_token,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(res.status).toBe(200);
    expect(res.json.active).toBe(true);
    expect(res.json.client_id).toBe(client.clientId);
  });

  it('reports the token of another application as inactive', async () => {
    const { tokens } = await tokensFor();
    const other = await svc.createClient();
    const res = await postForm(`${svc.url}/oauth/token/introspect`, {
      token: tokens.access_token,
      client_id: other.clientId,
      client_secret: other.clientSecret,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ active: false });
  });

  it('refuses a caller that does not authenticate', async () => {
    const { client, tokens } = await tokensFor();
    const res = await postForm(`${svc.url}/oauth/token/introspect`, { token: tokens.access_token, client_id: client.clientId });
    expect(res.status).toBe(401);
    expect(res.json).not.toHaveProperty('active');
    // No client authentication at all: 401 invalid_client with a challenge (RFC 7662 §2.1, RFC 6749 §5.2).
    const anonymous = await postForm(`${svc.url}/oauth/token/introspect`, { token: tokens.access_token });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toBe('invalid_client');
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });
});

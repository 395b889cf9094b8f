// Refresh tokens: issued with every code exchange, rotated on use, a short grace for parallel
// refreshes, and a reuse after the grace revokes the whole grant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { refreshGrant, signIn, userinfo } from '../support/flow.ts';

let svc: TestService;
let strict: TestService;
beforeAll(async () => {
  svc = await startTestService();
  strict = await startTestService({ ttl: { refreshTokenReuseGrace: 0 } });
});
afterAll(async () => {
  await svc.stop();
  await strict.stop();
});

const refresh = (s: TestService, client: TestClient, token: string) => refreshGrant(s.url, client, token);

async function tokensOn(s: TestService) {
  const client = await s.createClient();
  const { tokens } = await signIn(s.url, await relyingParty(s.url, client), await s.createUser());
  return { client, tokens };
}

describe('refresh tokens', () => {
  it('issues a refresh token without offline_access, and refreshing rotates it', async () => {
    const { client, tokens } = await tokensOn(svc);
    const res = await refresh(svc, client, tokens.refresh_token!);
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).toBeTruthy();
    expect(res.json.refresh_token).not.toBe(tokens.refresh_token);
    expect(res.json.expires_in).toBe(3600);
    expect((await userinfo(svc.url, String(res.json.access_token))).status).toBe(200);
  });

  it('tolerates parallel refreshes of one token within the grace', async () => {
    const { client, tokens } = await tokensOn(svc);
    const results = await Promise.all([1, 2, 3].map(() => refresh(svc, client, tokens.refresh_token!)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    // The successors are siblings: the first one used retires the others, so none stays valid on its own.
    const [a, b] = results.map((r) => String(r.json.refresh_token));
    const next = await refresh(svc, client, a);
    expect(next.status).toBe(200);
    expect((await refresh(svc, client, b)).json.error).toBe('invalid_grant');
    // Presenting a retired sibling is a replay: the whole grant ends, the winner's successor too.
    expect((await refresh(svc, client, String(next.json.refresh_token))).json.error).toBe('invalid_grant');
  });

  it('detects a stolen refresh token replayed within the grace: the grant ends for both sides', async () => {
    const { client, tokens } = await tokensOn(svc);
    const app = await refresh(svc, client, tokens.refresh_token!); // the app rotates A into B
    const thief = await refresh(svc, client, tokens.refresh_token!); // a thief replays A within the grace: C
    expect(thief.status).toBe(200);
    const thiefNext = await refresh(svc, client, String(thief.json.refresh_token)); // C into D, retiring B
    expect(thiefNext.status).toBe(200);
    expect((await refresh(svc, client, String(app.json.refresh_token))).json.error).toBe('invalid_grant'); // the app's B: replay
    expect((await refresh(svc, client, String(thiefNext.json.refresh_token))).json.error).toBe('invalid_grant');
    expect((await userinfo(svc.url, String(thiefNext.json.access_token))).status).toBe(401);
  });

  it('revokes the grant when a rotated refresh token is used after the grace', async () => {
    const { client, tokens } = await tokensOn(strict);
    const next = await refresh(strict, client, tokens.refresh_token!);
    expect(next.status).toBe(200);
    const replay = await refresh(strict, client, tokens.refresh_token!);
    expect(replay.status).toBe(400);
    expect(replay.json.error).toBe('invalid_grant');
    expect((await refresh(strict, client, String(next.json.refresh_token))).json.error).toBe('invalid_grant');
    expect((await userinfo(strict.url, String(next.json.access_token))).status).toBe(401);
  });

  it('keeps two chains of one grant apart, even when they start in the same second', async () => {
    const client = await svc.createClient();
    const rp = await relyingParty(svc.url, client);
    const user = await svc.createUser();
    const first = await signIn(svc.url, rp, user);
    // Same browser, consent remembered: the second sign-in reuses the grant (a second device would too).
    const second = await signIn(svc.url, rp, user, { browser: first.browser });
    expect((await refresh(svc, client, first.tokens.refresh_token!)).status).toBe(200);
    expect((await refresh(svc, client, second.tokens.refresh_token!)).status).toBe(200);
  });

  it('refuses a refresh token presented by another application', async () => {
    const { tokens } = await tokensOn(svc);
    const other = await svc.createClient();
    const res = await refresh(svc, other, tokens.refresh_token!);
    expect(res.json.error).toBe('invalid_grant');
  });
});

// The engine door against the installed engine: every internal the door relies on (src/provider/engine/,
// each file citing the engine files) is checked here through the real engine, so an upgrade that moves
// one fails this file by name instead of weakening a protection silently.
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Provider from 'oidc-provider';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  authenticatedClientId,
  currentTokenRequest,
  findSession,
  findEngineGrant,
  findSessionByUid,
  finishInteraction,
  holdErrorRedirects,
  issueAuthorizationCode,
  PoolSigningKey,
  redeemAuthorizationCode,
  replaceSigningKeys,
  rotatedRefreshTokenId,
  saveGrant,
  sessionCookieName,
  startSignedInSession,
  verifierMatches,
} from '../../src/provider/engine.ts';
import { engineKeys, generateSigningKey, keySource, publicPart } from '../../src/keys/signing-keys.ts';
import { fetchJwks, verifiesAgainst } from '../keys/jws.ts';
import { authorize, exchangeCode, postForm, refreshGrant, signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService } from '../support/service.ts';
import { USE_WINDOW_SECONDS } from '../../src/accounts/sessions.ts';

let svc: TestService;
let provider: Provider;
let client: TestClient;
beforeAll(async () => {
  svc = await startTestService();
  provider = svc.service.context.provider;
  client = await svc.createClient();
});
afterAll(() => svc.stop());

describe('the installed engine', () => {
  it('is the version the door was written against (oidc-provider 9.13.x)', () => {
    const { version } = JSON.parse(readFileSync('node_modules/oidc-provider/package.json', 'utf8')) as { version: string };
    // Another version: re-read each file under src/provider/engine/ against it, then update this range.
    expect(version).toMatch(/^9\.13\.\d+$/);
  });
});

describe('hashed client secrets (engine/client-secrets.ts)', () => {
  it('replaces the comparison method of the engine’s Client class', async () => {
    expect(provider.Client.prototype.compareClientSecret.name).toBe('compareHashed');
    const registered = await provider.Client.find(client.clientId);
    expect(registered?.clientSecret).not.toBe(client.clientSecret);
    expect(await registered?.compareClientSecret(client.clientSecret)).toBe(true);
    expect(await registered?.compareClientSecret(`${client.clientSecret}x`)).toBe(false);
  });

  it('is awaited by the token endpoint: a wrong secret fails, the right one passes', async () => {
    const request = (secret: string) =>
      postForm(`${svc.url}/oauth/token`, {
        grant_type: 'authorization_code',
        code: 'not-a-code',
        redirect_uri: client.redirectUri,
        code_verifier: 'v'.repeat(43),
        client_id: client.clientId,
        client_secret: secret,
      });
    // Were the (asynchronous) comparison not awaited, the wrong secret would pass as well.
    const wrong = await request('wrong-secret');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid_client');
    // Past client authentication, the made-up code is what fails.
    const right = await request(client.clientSecret);
    expect(right.status).toBe(400);
    expect(right.json.error).toBe('invalid_grant');
  });
});

describe('client instances (engine/client-instances.ts)', () => {
  it('replaces the engine’s lookup, which finds the Client built once for the application', async () => {
    expect(provider.Client.find.name).toBe('findRemembered');
    const first = await provider.Client.find(client.clientId);
    expect(first?.clientId).toBe(client.clientId);
    expect(await provider.Client.find(client.clientId)).toBe(first);
    expect(await provider.Client.find('no-such-application')).toBeUndefined();
  });

  it('builds a new Client as soon as the application changes', async () => {
    const before = await provider.Client.find(client.clientId);
    await svc.service.context.clients.update(client.clientId, { name: 'Nom changé' });
    const after = await provider.Client.find(client.clientId);
    expect(after).not.toBe(before);
    expect(after?.clientName).toBe('Nom changé');
    expect(await provider.Client.find(client.clientId)).toBe(after);
  });
});

describe('token requests (engine/token-requests.ts)', () => {
  it('sees, from the adapter calls of a refresh, the request, its client, and the token being rotated', async () => {
    expect(Object.getOwnPropertyDescriptor(Provider, 'ctx')?.get).toBeTypeOf('function');
    const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    const seen: Array<{ rotated?: string; client?: string; pending?: number }> = [];
    const record = () =>
      seen.push({ rotated: rotatedRefreshTokenId(), client: authenticatedClientId(), pending: currentTokenRequest()?.commits.length });
    provider.on('refresh_token.saved', record);
    try {
      const res = await refreshGrant(svc.url, client, tokens.refresh_token!);
      expect(res.status).toBe(200);
    } finally {
      provider.off('refresh_token.saved', record);
    }
    // The presented token was consumed (a commit recorded, nothing written) before its successor was saved.
    expect(seen).toEqual([{ rotated: tokens.refresh_token, client: client.clientId, pending: 1 }]);
    // Outside a request there is nothing being rotated, and no request.
    expect(rotatedRefreshTokenId()).toBeUndefined();
    expect(currentTokenRequest()).toBeUndefined();
  });

  it('consumes the code before any token of the exchange is saved', async () => {
    const flow = await authorize(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    const pending: Array<number | undefined> = [];
    const record = () => pending.push(currentTokenRequest()?.commits.length);
    provider.on('access_token.saved', record);
    provider.on('refresh_token.saved', record);
    try {
      expect((await exchangeCode(svc.url, client, flow)).status).toBe(200);
    } finally {
      provider.off('access_token.saved', record);
      provider.off('refresh_token.saved', record);
    }
    expect(pending).toEqual([1, 1]);
  });
});

describe('refresh-token families (engine/refresh-token-families.ts)', () => {
  it('gives every refresh token a value naming its family, kept through rotations', async () => {
    expect(Object.getOwnPropertyDescriptor(provider.RefreshToken.prototype, 'generateTokenId')?.value?.name).toBe('familyTokenId');
    const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    // 128 bits of family, then the engine's own 256 random bits (bitsOfOpaqueRandomness).
    const [family, random] = tokens.refresh_token!.split('.');
    expect(family).toMatch(/^[\w-]{22}$/);
    expect(random).toMatch(/^[\w-]{43}$/);
    const next = String((await refreshGrant(svc.url, client, tokens.refresh_token!)).json.refresh_token);
    expect(next.split('.')[0]).toBe(family);
    expect(next.split('.')[1]).not.toBe(random);
    // Another sign-in starts another family.
    const other = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    expect(other.tokens.refresh_token!.split('.')[0]).not.toBe(family);
  });
});

describe('session storage (engine/session-storage.ts)', () => {
  it('records a signed-in session, from the payload the engine stores, before it is saved', async () => {
    const user = await svc.createUser();
    const started = await startSignedInSession(provider, user.id, 3600);
    const session = await findSession(provider, started.id);
    const rows = await svc.service.context.db.query<{ account_id: string; exp: number }>(
      'SELECT account_id, extract(epoch FROM expires_at)::int AS exp FROM account_sessions WHERE session_uid = $1',
      [session!.uid],
    );
    // The record outlives its session by the window within which it is not written again (sessions.ts).
    expect(rows.rows).toEqual([{ account_id: user.id, exp: session!.exp + USE_WINDOW_SECONDS }]);
    expect(session!.loginTs).toBeTypeOf('number');
  });
});

describe('engine sessions (engine/sessions.ts)', () => {
  it('makes a signed-in session the engine accepts from its cookie', async () => {
    const user = await svc.createUser();
    const started = await startSignedInSession(provider, user.id, 3600);
    expect(started.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);

    const session = await findSession(provider, started.id);
    expect(session?.accountId).toBe(user.id);
    expect(typeof provider.Session.findByUid).toBe('function');
    expect((await findSessionByUid(provider, session!.uid))?.jti).toBe(started.id);

    // The engine reads its session from this cookie, signed with the cookie keys (as koa's cookies sign).
    const name = sessionCookieName(provider);
    const signature = createHmac('sha1', svc.config.secrets.cookieKeys[0])
      .update(`${name}=${started.id}`)
      .digest('base64')
      .replace(/[/+=]/g, (c) => ({ '/': '_', '+': '-', '=': '' })[c] ?? '');
    const rp = await relyingParty(svc.url, client);
    const res = await fetch((await rp.start()).url, {
      headers: { cookie: `${name}=${started.id}; ${name}.sig=${signature}` },
      redirect: 'manual',
    });
    const uid = new URL(res.headers.get('location') ?? '', svc.url).pathname.split('/').pop() ?? '';
    // Signed in already: the engine asks for consent, not for a login.
    const interaction = await provider.Interaction.find(uid);
    expect(interaction?.prompt.name).toBe('consent');
    expect(interaction?.session?.accountId).toBe(user.id);
  });

  it('finds nothing for an unknown id or uid', async () => {
    expect(await findSession(provider, 'no-such-session')).toBeUndefined();
    expect(await findSessionByUid(provider, 'no-such-uid')).toBeUndefined();
  });
});

describe('grants (engine/grants.ts)', () => {
  it('saves a grant with granted and refused scopes and claims', async () => {
    const id = await saveGrant(provider, {
      accountId: 'account-1',
      clientId: client.clientId,
      scopes: ['openid', 'email'],
      rejectedScopes: ['profile'],
      claims: ['email'],
      rejectedClaims: ['username'],
    });
    const grant = await provider.Grant.find(id);
    expect(grant?.accountId).toBe('account-1');
    expect(grant?.clientId).toBe(client.clientId);
    expect(grant?.getOIDCScope()).toBe('openid email');
    expect(grant?.getRejectedOIDCScope()).toBe('profile');
    expect(grant?.getOIDCClaims()).toEqual(['email']);
    expect(grant?.getRejectedOIDCClaims()).toEqual(['username']);
  });
});

describe('interaction steps (engine/interactions.ts)', () => {
  /** An interaction the engine started, as the consent step finds it once the user has signed in. */
  async function storedInteraction() {
    const rp = await relyingParty(svc.url, client);
    const res = await fetch((await rp.start()).url, { redirect: 'manual' });
    const uid = new URL(res.headers.get('location') ?? '', svc.url).pathname.split('/').pop() ?? '';
    const started = (await provider.Interaction.find(uid))!;
    started.lastSubmission = { login: { accountId: 'account-1' } };
    await started.save(started.exp - Math.floor(Date.now() / 1000));
    return (await provider.Interaction.find(uid))!;
  }

  async function finished(result: Parameters<typeof finishInteraction>[2], mergeWithLastSubmission: boolean) {
    const interaction = await storedInteraction();
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    await finishInteraction(res, interaction, result, { mergeWithLastSubmission });
    return { res, before: interaction, after: (await provider.Interaction.find(interaction.uid))! };
  }

  it('saves the result over the last submission, for the rest of its lifetime, and answers 303 to its next step', async () => {
    const { res, before, after } = await finished({ consent: { grantId: 'grant-1' } }, true);
    expect(after.result).toEqual({ login: { accountId: 'account-1' }, consent: { grantId: 'grant-1' } });
    expect(after.exp).toBe(before.exp);
    expect(res.statusCode).toBe(303);
    expect(res.getHeader('location')).toBe(before.returnTo);
    expect(before.returnTo).toBe(`${svc.url}/oauth/authorize/${before.uid}`);
    expect(res.getHeader('content-length')).toBe('0');
    expect(res.writableEnded).toBe(true);
  });

  it('keeps the result alone when no merge is asked, or when it is an error', async () => {
    expect((await finished({ login: { accountId: 'account-2' } }, false)).after.result).toEqual({ login: { accountId: 'account-2' } });
    expect((await finished({ error: 'access_denied' }, true)).after.result).toEqual({ error: 'access_denied' });
  });
});

describe('in-process code redemption (engine/authorization-codes.ts)', () => {
  it('uses the engine’s own PKCE check: S256, well-formed verifier, exact match', () => {
    const verifier = 'a'.repeat(43);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches('b'.repeat(43), challenge)).toBe(false);
    expect(verifierMatches('short', createHash('sha256').update('short').digest('base64url'))).toBe(false);
    expect(verifierMatches(verifier, undefined)).toBe(false);
  });

  it('redeems a code once, for its client and redirect URI, with its verifier', async () => {
    const user = await svc.createUser();
    const flow = await authorize(svc.url, await relyingParty(svc.url, client), user);
    const code = flow.callback.searchParams.get('code') ?? '';
    const redemption = { code, verifier: flow.start.verifier, clientId: client.clientId, redirectUri: client.redirectUri };
    expect(await redeemAuthorizationCode(provider, { ...redemption, verifier: 'x'.repeat(43) })).toBeUndefined();
    expect(await redeemAuthorizationCode(provider, { ...redemption, clientId: 'another-client' })).toBeUndefined();
    expect(await redeemAuthorizationCode(provider, { ...redemption, redirectUri: `${client.redirectUri}/x` })).toBeUndefined();
    const redeemed = await redeemAuthorizationCode(provider, redemption);
    expect(redeemed?.accountId).toBe(user.id);
    expect(redeemed?.sessionUid).toBeTruthy();
    // Consumed: neither the door nor the token endpoint accepts it again.
    expect(await redeemAuthorizationCode(provider, redemption)).toBeUndefined();
    expect((await exchangeCode(svc.url, client, flow)).json.error).toBe('invalid_grant');
  });
});

describe('codes issued outside the authorization endpoint (engine/issued-codes.ts)', () => {
  it('stores a code the token endpoint reads as its own: client, grant, scopes held, S256 challenge, redirect URI', async () => {
    const user = await svc.createUser();
    const grantId = await saveGrant(provider, {
      accountId: user.id,
      clientId: client.clientId,
      scopes: ['openid', 'email'],
      rejectedScopes: ['profile'],
    });
    const grant = await findEngineGrant(provider, grantId);
    expect(grant?.scopesHeld('openid email profile').sort()).toEqual(['email', 'openid']);
    expect(grant?.rejectedScopes()).toEqual(['profile']);
    const verifier = 'v'.repeat(43);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await issueAuthorizationCode(provider, {
      clientId: client.clientId,
      accountId: user.id,
      grantId,
      scope: 'openid email profile',
      redirectUri: client.redirectUri,
      codeChallenge: challenge,
      authTime: 1_700_000_000,
      amr: ['pwd'],
    });
    const stored = await provider.AuthorizationCode.find(code!);
    expect(stored).toMatchObject({
      clientId: client.clientId,
      accountId: user.id,
      grantId,
      scope: 'openid email',
      codeChallenge: challenge,
    });
    expect(stored).toMatchObject({ codeChallengeMethod: 'S256', redirectUri: client.redirectUri, authTime: 1_700_000_000, amr: ['pwd'] });
    // Another account's grant, or an unknown client: no code.
    expect(
      await issueAuthorizationCode(provider, {
        clientId: client.clientId,
        accountId: 'someone',
        grantId,
        scope: 'openid',
        redirectUri: client.redirectUri,
        codeChallenge: challenge,
      }),
    ).toBeUndefined();
    expect(
      await issueAuthorizationCode(provider, {
        clientId: 'no-such-client',
        accountId: user.id,
        grantId,
        scope: 'openid',
        redirectUri: client.redirectUri,
        codeChallenge: challenge,
      }),
    ).toBeUndefined();
    // And the token endpoint redeems it once, with its verifier.
    const redeem = () =>
      postForm(`${svc.url}/oauth/token`, {
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      });
    const first = await redeem();
    expect(first.status).toBe(200);
    expect(first.json.scope).toBe('openid email');
    expect((await redeem()).json.error).toBe('invalid_grant');
  });
});

describe('signing keys (engine/signing-keys.ts)', () => {
  const published = async (): Promise<string[]> =>
    ((await (await fetch(`${svc.url}/oauth/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
  const idTokenKid = async (): Promise<string> => {
    const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    return (JSON.parse(Buffer.from(tokens.id_token!.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;
  };

  it('swaps the keys a running engine signs with and publishes: the first of an algorithm signs', async () => {
    const current = engineKeys(await keySource(svc.config, svc.service.context.db).read(), new Date());
    const fresh = generateSigningKey('RS256');
    try {
      replaceSigningKeys(provider, [fresh, ...current]);
      expect(await published()).toEqual([fresh.kid, ...current.map((k) => k.kid)]);
      expect(await idTokenKid()).toBe(fresh.kid);
      // Listed after the one that signs, a key is published and verifies only.
      replaceSigningKeys(provider, [...current, fresh]);
      expect(await idTokenKid()).toBe(current[0].kid);
    } finally {
      replaceSigningKeys(provider, current);
    }
    expect(await published()).toEqual(current.map((k) => k.kid));
  });

  it('refuses a broken key before changing anything', async () => {
    const before = await published();
    expect(() => replaceSigningKeys(provider, [{ kid: 'broken', alg: 'RS256', kty: 'RSA' }])).toThrow();
    expect(await published()).toEqual(before);
  });
});

describe('signatures on the thread pool (engine/pool-signing-keys.ts)', () => {
  it('has the engine sign ID tokens through the keys’ own sign method, which the JWKS verifies', async () => {
    // A service of its own: the keys it was built with, whatever the tests above swapped in the shared one.
    const built = await startTestService();
    const signs = vi.spyOn(PoolSigningKey.prototype, 'sign');
    try {
      const app = await built.createClient();
      const idToken = async () => (await signIn(built.url, await relyingParty(built.url, app), await built.createUser())).tokens.id_token!;
      expect(verifiesAgainst(await idToken(), await fetchJwks(built.url))).toBe(true);
      expect(signs).toHaveBeenCalledTimes(1);
      // And the keys a reload hands it (engine/signing-keys.ts).
      const engine = built.service.context.provider;
      replaceSigningKeys(engine, engineKeys(await keySource(built.config, built.service.context.db).read(), new Date()));
      expect(verifiesAgainst(await idToken(), await fetchJwks(built.url))).toBe(true);
      expect(signs).toHaveBeenCalledTimes(2);
    } finally {
      signs.mockRestore();
      await built.stop();
    }
  });

  it('publishes each key as its public half, as the engine did with the private JWK', async () => {
    const current = engineKeys(await keySource(svc.config, svc.service.context.db).read(), new Date());
    expect((await fetchJwks(svc.url)).keys).toEqual(current.map((jwk) => publicPart(jwk)));
  });
});

describe('grant types per client (engine/client-grants.ts)', () => {
  it('replaces the engine’s grant check, which its token endpoint consults once the client has authenticated', async () => {
    expect(provider.Client.prototype.grantTypeAllowed.name).toBe('grantTypeAllowedOrRefused');
    // Outside a token request, the plain answer: the engine's other callers (revocation of a grant) rely on it.
    const registered = await provider.Client.find(client.clientId);
    expect(registered?.grantTypeAllowed('client_credentials')).toBe(false);
    expect(registered?.grantTypeAllowed('refresh_token')).toBe(true);
    // At the token endpoint, after client authentication: a wrong secret is still invalid_client...
    const fields = { grant_type: 'client_credentials', client_id: client.clientId };
    const wrong = await postForm(`${svc.url}/oauth/token`, { ...fields, client_secret: 'wrong-secret' });
    expect(wrong.json.error).toBe('invalid_client');
    // ...and the right one reaches the check: a grant the client is not registered for.
    const right = await postForm(`${svc.url}/oauth/token`, { ...fields, client_secret: client.clientSecret });
    expect(right.status).toBe(400);
    expect(right.json.error).toBe('unauthorized_client');
  });
});

describe('held error redirects (engine/authorization-errors.ts)', () => {
  it('turns an error the engine would send to a registered redirect URI into its error page, when told to', async () => {
    const authorizeWith = (state: string, redirectUri = client.redirectUri) =>
      request(svc.url)
        .get(
          `/oauth/authorize?${new URLSearchParams({
            client_id: client.clientId,
            response_type: 'code',
            redirect_uri: redirectUri,
            // A character RFC 6749 §3.3 excludes from a scope: invalid_scope.
            scope: 'openid "x"',
            state,
            code_challenge: 'c'.repeat(43),
            code_challenge_method: 'S256',
          })}`,
        )
        .redirects(0);
    const held: string[] = [];
    const stop = holdErrorRedirects(
      provider,
      (ctx) => ctx.oidc.params?.state !== 'hold',
      (_ctx, error) => held.push(error.error),
    );
    try {
      // The engine emits authorization.error, then reads allow_redirect: the page, no Location.
      const page = await authorizeWith('hold');
      expect(page.status).toBe(400);
      expect(page.headers.location).toBeUndefined();
      expect(page.text).toContain('<html lang="fr">');
      expect(held).toEqual(['invalid_scope']);
      // Not held: the engine's redirect, with iss.
      const redirect = await authorizeWith('pass');
      expect(redirect.status).toBe(303);
      expect(new URL(redirect.headers.location as string).searchParams.get('iss')).toBe(svc.url);
      // An unregistered redirect URI is the engine's own page: nothing to hold, nothing reported.
      expect((await authorizeWith('hold', 'https://elsewhere.example/cb')).status).toBe(400);
      expect(held).toEqual(['invalid_scope']);
    } finally {
      stop();
    }
    expect((await authorizeWith('hold')).status).toBe(303);
  });
});

// One contract for every storage backend: what oidc-provider expects of an adapter, plus our own
// promises (hashed ids at rest, single-use redemption under concurrency, refresh-token families).
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isRefreshTokenAdapter,
  type AdapterOptions,
  type ModelAdapter,
  type Payload,
  type RefreshTokenAdapter,
} from '../../adapters/adapter.ts';
import { familyTokenValue, newFamilyId } from '../../adapters/refresh-family.ts';
import { storageKey } from '../../adapters/token-key.ts';

export interface AdapterBackend {
  adapter(model: string, options?: AdapterOptions): ModelAdapter;
  /** Everything the store holds, as one text, for the at-rest checks. */
  dump(): Promise<string>;
  close(): Promise<void>;
}

export interface ContractOptions {
  /** The backend stores RefreshToken (SQL does; Redis never does): test the families. */
  refreshTokens?: boolean;
}

const NO_GRACE: AdapterOptions = { refreshTokenReuseGrace: 0 };

/** A value shaped like the engine's: 43 base64url characters, 256 random bits. */
export const tokenId = (): string => randomBytes(32).toString('base64url');

const now = () => Math.floor(Date.now() / 1000);

function tokenPayload(kind: string, id: string, extra: Partial<Payload> = {}): Payload {
  const iat = now();
  return { kind, jti: id, iat, exp: iat + 60, accountId: 'account-1', clientId: 'client-1', scope: 'openid', ...extra };
}

/** Settles every promise and sorts outcomes: how many resolved, and the rejection reasons. */
async function outcomes(promises: Promise<unknown>[]): Promise<{ resolved: number; rejected: unknown[] }> {
  const results = await Promise.allSettled(promises);
  return {
    resolved: results.filter((r) => r.status === 'fulfilled').length,
    rejected: results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : [])),
  };
}

export function describeAdapterContract(name: string, makeBackend: () => Promise<AdapterBackend>, options: ContractOptions = {}): void {
  describe(`${name} adapter contract`, () => {
    let backend: AdapterBackend;
    const adapter = (model: string, opts: AdapterOptions = NO_GRACE) => backend.adapter(model, opts);

    beforeAll(async () => {
      backend = await makeBackend();
    });
    afterAll(async () => {
      await backend?.close();
    });

    it('round-trips a payload, restoring jti from the id', async () => {
      const id = tokenId();
      const payload = tokenPayload('AccessToken', id, { grantId: 'g-roundtrip', extra: { tenant: 'a' } });
      await adapter('AccessToken').upsert(id, payload, 60);
      expect(await adapter('AccessToken').find(id)).toEqual(payload);
    });

    it('keeps Session payloads whole (the engine needs jti back from findByUid)', async () => {
      const id = tokenId();
      const session = { kind: 'Session', jti: id, uid: `uid-${tokenId()}`, exp: now() + 60, accountId: 'a1', loginTs: now() };
      await adapter('Session').upsert(id, session, 60);
      expect(await adapter('Session').find(id)).toEqual(session);
    });

    it('returns undefined, not {}, for a miss', async () => {
      const accessTokens = adapter('AccessToken');
      expect(await accessTokens.find(tokenId())).toBeUndefined();
      expect(await adapter('Session').findByUid('no-such-uid')).toBeUndefined();
      expect(await adapter('DeviceCode').findByUserCode('NO-SUCH')).toBeUndefined();
    });

    it('keys models apart: one id under two models is two records', async () => {
      const id = tokenId();
      await adapter('AccessToken').upsert(id, tokenPayload('AccessToken', id), 60);
      expect(await adapter('AuthorizationCode').find(id)).toBeUndefined();
    });

    it('replaces the payload on a second upsert of the same id', async () => {
      const id = tokenId();
      const interactions = adapter('Interaction');
      await interactions.upsert(id, { kind: 'Interaction', jti: id, returnTo: '/first', exp: now() + 60 }, 60);
      await interactions.upsert(id, { kind: 'Interaction', jti: id, returnTo: '/second', exp: now() + 60 }, 60);
      expect((await interactions.find(id))?.returnTo).toBe('/second');
    });

    it('forgets a record once its expiresIn has passed', async () => {
      const id = tokenId();
      const codes = adapter('AuthorizationCode');
      await codes.upsert(id, tokenPayload('AuthorizationCode', id), 1);
      expect(await codes.find(id)).toBeDefined();
      await sleep(1100);
      expect(await codes.find(id)).toBeUndefined();
    });

    it('consume sets consumed (epoch seconds) and keeps the expiry', async () => {
      const id = tokenId();
      const codes = adapter('AuthorizationCode');
      await codes.upsert(id, tokenPayload('AuthorizationCode', id), 1);
      const before = now();
      await codes.consume(id);
      const found = await codes.find(id);
      expect(found?.consumed).toBeGreaterThanOrEqual(before - 1);
      expect(found?.consumed).toBeLessThanOrEqual(now() + 1);
      expect(found?.jti).toBe(id);
      await sleep(1100);
      expect(await codes.find(id)).toBeUndefined();
    });

    it('lets exactly one of 20 concurrent consumes win; the others get invalid_grant', async () => {
      const id = tokenId();
      const codes = adapter('AuthorizationCode');
      await codes.upsert(id, tokenPayload('AuthorizationCode', id, { grantId: 'g-race' }), 60);
      const { resolved, rejected } = await outcomes(Array.from({ length: 20 }, () => codes.consume(id)));
      expect(resolved).toBe(1);
      expect(rejected).toHaveLength(19);
      for (const reason of rejected) expect((reason as { error?: string }).error).toBe('invalid_grant');
    });

    it('rejects consuming a code that does not exist', async () => {
      await expect(adapter('AuthorizationCode').consume(tokenId())).rejects.toMatchObject({ error: 'invalid_grant' });
    });

    it('finds a Session by uid, and follows a session whose id was reset', async () => {
      const sessions = adapter('Session');
      const uid = `uid-${tokenId()}`;
      const first = tokenId();
      await sessions.upsert(first, { kind: 'Session', jti: first, uid, exp: now() + 60 }, 60);
      expect((await sessions.findByUid(uid))?.jti).toBe(first);

      // Session.resetIdentifier (login, logout): the old id is destroyed, the same uid saved anew.
      const second = tokenId();
      await sessions.destroy(first);
      await sessions.upsert(second, { kind: 'Session', jti: second, uid, exp: now() + 60 }, 60);
      expect((await sessions.findByUid(uid))?.jti).toBe(second);

      await sessions.destroy(second);
      expect(await sessions.findByUid(uid)).toBeUndefined();
    });

    it('finds a DeviceCode by user code', async () => {
      const id = tokenId();
      const userCode = `BCDF-${randomBytes(3).toString('hex')}`;
      await adapter('DeviceCode').upsert(id, tokenPayload('DeviceCode', id, { userCode }), 60);
      expect(await adapter('DeviceCode').findByUserCode(userCode)).toMatchObject({ userCode, clientId: 'client-1' });
    });

    it('destroy removes the record', async () => {
      const id = tokenId();
      const accessTokens = adapter('AccessToken');
      await accessTokens.upsert(id, tokenPayload('AccessToken', id), 60);
      await accessTokens.destroy(id);
      expect(await accessTokens.find(id)).toBeUndefined();
      await accessTokens.destroy(id); // destroying twice is harmless
    });

    it("revokeByGrantId removes every model's records of that grant, and not another grant's", async () => {
      const models = options.refreshTokens ? ['AccessToken', 'AuthorizationCode', 'RefreshToken'] : ['AccessToken', 'AuthorizationCode'];
      const [revoked, kept] = [`g-${tokenId()}`, `g-${tokenId()}`];
      const ids = new Map<string, { revoked: string[]; kept: string[] }>();
      for (const model of models) {
        // A refresh token's value names its family, as the service issues them.
        const idFor = () => (model === 'RefreshToken' ? familyTokenValue(newFamilyId(), tokenId()) : tokenId());
        const entry = { revoked: [idFor(), idFor()], kept: [idFor()] };
        ids.set(model, entry);
        for (const id of entry.revoked) await adapter(model).upsert(id, tokenPayload(model, id, { grantId: revoked }), 60);
        for (const id of entry.kept) await adapter(model).upsert(id, tokenPayload(model, id, { grantId: kept }), 60);
      }

      // As the engine and src/grants/revoke.ts do: once per grant-bound model.
      await Promise.all(models.map((model) => adapter(model).revokeByGrantId(revoked)));

      for (const [model, entry] of ids) {
        for (const id of entry.revoked) expect(await adapter(model).find(id), `${model} of the revoked grant`).toBeUndefined();
        for (const id of entry.kept) expect(await adapter(model).find(id), `${model} of another grant`).toBeDefined();
      }
    });

    it('stores no code or token in the clear', async () => {
      const code = tokenId();
      const accessToken = tokenId();
      await adapter('AuthorizationCode').upsert(code, tokenPayload('AuthorizationCode', code, { grantId: 'g-at-rest' }), 60);
      await adapter('AccessToken').upsert(accessToken, tokenPayload('AccessToken', accessToken, { grantId: 'g-at-rest' }), 60);
      await adapter('AuthorizationCode').consume(code);
      const dump = await backend.dump();
      expect(dump.length).toBeGreaterThan(0);
      expect(dump).toContain('g-at-rest'); // the dump does hold these records...
      expect(dump).not.toContain(code); // ...but neither value
      expect(dump).not.toContain(accessToken);
    });

    if (options.refreshTokens) describeReuseGrace(adapter);
  });
}

function describeReuseGrace(adapter: (model: string, options?: AdapterOptions) => ModelAdapter): void {
  describe('RefreshToken families', () => {
    const grace30: AdapterOptions = { refreshTokenReuseGrace: 30 };
    const families = (options: AdapterOptions = grace30): RefreshTokenAdapter => {
      const tokens = adapter('RefreshToken', options);
      if (!isRefreshTokenAdapter(tokens)) throw new Error('the SQL store keeps refresh-token families');
      return tokens;
    };
    /** A family's first token, as a code exchange stores it. */
    async function startFamily(tokens: RefreshTokenAdapter, grantId = `g-${tokenId()}`) {
      const family = newFamilyId();
      const first = familyTokenValue(family, tokenId());
      await tokens.upsert(first, tokenPayload('RefreshToken', first, { grantId, iiat: now() }), 60);
      return { family, first, grantId };
    }
    /**
     * A refresh of `presented`: the rotation and the successor it issues, in one statement, as the token
     * endpoint commits them (`at` is the rotation's clock). `won` is false when another use moved first.
     */
    async function rotate(tokens: RefreshTokenAdapter, family: string, presented: string, grantId: string, at = now()) {
      const id = familyTokenValue(family, tokenId());
      const payload = tokenPayload('RefreshToken', id, { grantId, parent: storageKey(presented) });
      await tokens.lookup(presented, at);
      const won = await tokens.commitRotation({
        id: presented,
        now: at,
        successorExpiresAt: at + 60,
        successor: { id, payload, expiresIn: 60 },
      });
      return { id, won };
    }

    it('finds the first token of a family live, and unused', async () => {
      const tokens = families();
      const { first } = await startFamily(tokens);
      const found = await tokens.lookup(first, now());
      expect(found.standing).toBe('live');
      expect(found.parent).toBeNull();
      expect((await tokens.find(first))?.consumed).toBeUndefined();
    });

    it('after a rotation: the successor is live, the rotated token within the grace, then a reuse', async () => {
      const tokens = families();
      const { family, first, grantId } = await startFamily(tokens);
      const next = await rotate(tokens, family, first, grantId);
      expect(next.won).toBe(true);
      expect((await tokens.lookup(next.id, now())).standing).toBe('live');
      expect((await tokens.find(next.id))?.grantId).toBe(grantId);
      expect((await tokens.lookup(first, now())).standing).toBe('grace');
      // The grace counts from the rotation, on the clock the rotation was given.
      expect((await tokens.lookup(first, now() + 31)).standing).toBe('reuse');
      expect((await tokens.find(first))?.consumed).toBeUndefined();
      // Without a grace, the rotated token is a reuse at once.
      const strict = families({ refreshTokenReuseGrace: 0 });
      expect((await strict.lookup(first, now())).standing).toBe('reuse');
      expect((await strict.find(first))?.consumed).toBeTypeOf('number');
    });

    it('keeps the grace when the clock is set back after a rotation: the replay is a reuse', async () => {
      const tokens = families();
      const { family, first, grantId } = await startFamily(tokens);
      // Rotated while the clock was two hours ahead, presented again 40 s after it was set back.
      const ahead = now() + 7200;
      expect((await rotate(tokens, family, first, grantId, ahead)).won).toBe(true);
      expect((await tokens.lookup(first, now() + 40)).standing).toBe('reuse');
      expect((await rotate(tokens, family, first, grantId, now() + 40)).won).toBe(false);
    });

    it('a use within the grace keeps the head where it is, and does not extend the grace', async () => {
      const tokens = families();
      const { family, first, grantId } = await startFamily(tokens);
      const rotatedAt = now() - 20;
      const next = await rotate(tokens, family, first, grantId, rotatedAt);
      const sibling = await rotate(tokens, family, first, grantId); // the parallel refresh
      expect([next.won, sibling.won]).toEqual([true, true]);
      // Both successors are live: the application keeps whichever answer it read last.
      expect((await tokens.lookup(next.id, now())).standing).toBe('live');
      expect((await tokens.lookup(sibling.id, now())).standing).toBe('live');
      expect((await tokens.lookup(first, rotatedAt + 31)).standing).toBe('reuse');
    });

    it('a token two generations old is a reuse, and no longer stored; so is a sibling of the token used', async () => {
      const tokens = families();
      const { family, first, grantId } = await startFamily(tokens);
      const second = (await rotate(tokens, family, first, grantId)).id;
      const third = await rotate(tokens, family, second, grantId);
      const sibling = await rotate(tokens, family, second, grantId); // within the grace: a sibling of third
      expect([third.won, sibling.won]).toEqual([true, true]);
      expect((await rotate(tokens, family, third.id, grantId)).won).toBe(true);
      for (const [name, id] of [
        ['first', first],
        ['sibling', sibling.id],
      ]) {
        const found = await tokens.lookup(id, now());
        expect(found.standing, name).toBe('reuse');
        expect(found.payload, `${name}: it was removed when the family moved on`).toBeUndefined();
        expect(found.family?.grantId, name).toBe(grantId);
      }
      // The head (third) is still there, for a parallel refresh within the grace.
      expect((await tokens.lookup(second, now())).standing).toBe('reuse'); // its successor third was used
      expect((await tokens.lookup(third.id, now())).standing).toBe('grace');
    });

    it('of 20 concurrent uses of two siblings, exactly one moves the head; the other sibling loses', async () => {
      const tokens = families();
      const { family, first, grantId } = await startFamily(tokens);
      const [a, b] = [(await rotate(tokens, family, first, grantId)).id, (await rotate(tokens, family, first, grantId)).id];
      const strict = families({ refreshTokenReuseGrace: 0 });
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => rotate(strict, family, i % 2 ? a : b, grantId)));
      expect(results.filter((r) => r.won)).toHaveLength(1);
      const winner = results.find((r) => r.won)!;
      expect((await strict.lookup(winner.id, now())).standing).toBe('live');
      for (const loser of results.filter((r) => !r.won)) expect((await strict.lookup(loser.id, now())).standing).toBe('reuse');
    });

    it('refuses a successor saved apart from the rotation that issues it, rather than losing it', async () => {
      const tokens = families();
      const { family, first, grantId } = await startFamily(tokens);
      const id = familyTokenValue(family, tokenId());
      await expect(tokens.upsert(id, tokenPayload('RefreshToken', id, { grantId, parent: storageKey(first) }), 60)).rejects.toThrow(
        /rotation/,
      );
    });

    it('revoking the grant removes its families: its tokens are unknown from then on', async () => {
      const tokens = families();
      const { first, grantId } = await startFamily(tokens);
      await tokens.revokeByGrantId(grantId);
      expect(await tokens.lookup(first, now())).toMatchObject({ standing: 'unknown', payload: undefined });
    });

    it('finds no refresh token under a value that names no family (an access token, a token from before families)', async () => {
      const tokens = families();
      const id = tokenId();
      await tokens.upsert(id, tokenPayload('RefreshToken', id, { grantId: `g-${tokenId()}`, iiat: now() }), 60);
      expect(await tokens.lookup(id, now())).toMatchObject({ standing: 'unknown', payload: undefined });
      expect(await tokens.find(id)).toBeUndefined();
    });
  });
}

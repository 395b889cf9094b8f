// The storage of codes and tokens as the token endpoint uses it. What changes from what the engine would
// do on its own:
// - a redemption (a code, a refresh token) is not written when the engine consumes it, but recorded on
//   the request and committed once the whole response is stored (token-commit.ts): a request that fails
//   half-way (a store unreachable) consumes nothing, and the application's retry works;
// - a code exchange stores its access token and its new family's first refresh token side by side, and
//   beside the ID token's signature: the engine waits for each save in turn, and under load each wait is
//   another turn of the event loop behind every other request. The commit waits for all of them, so
//   nothing is redeemed before the whole response is stored, and a save that fails still fails the
//   request. A refresh saves its access token in turn, as the engine does: it is its one write before the
//   commit, and written beside the signature it showed no gain (docs/architecture/decisions.md);
// - a refresh token is judged by its family (adapters/refresh-family.ts): a replay of any rotated token
//   revokes the grant at once, even when the token's own row is long gone;
// - a refresh token this instance issued is found in its memory (issued-refresh-tokens.ts), which the
//   rotation's commit then checks against the family;
// - with Redis, a code's single use and a token's revocation are also recorded in SQL, where an older
//   state of Redis cannot undo them (durable-revocations.ts).
import { errors } from 'oidc-provider';
import type { AdapterFactory, ModelAdapter, RefreshTokenAdapter } from '../../../adapters/adapter.ts';
import { alreadyConsumed, isRefreshTokenAdapter, restoreId, stripId } from '../../../adapters/adapter.ts';
import { familyOf } from '../../../adapters/refresh-family.ts';
import { storageKey } from '../../../adapters/token-key.ts';
import { authenticatedClientId, currentTokenRequest, rotatedRefreshTokenId, type PendingCommit } from '../engine.ts';
import { redeemCodeOnce, revocableTokens, type DurableRevocations } from './durable-revocations.ts';
import { IssuedRefreshTokens } from './issued-refresh-tokens.ts';

/** A replayed refresh token or code: the grant it revoked, for the security log. */
export interface TokenReuse {
  kind: PendingCommit['kind'];
  grantId: string;
  clientId?: string;
  accountId?: string;
}

export interface TokenStorageOptions {
  /** Ends a grant with everything issued under it, in every store. */
  revokeGrant(grantId: string): Promise<void>;
  onReuse?(reuse: TokenReuse): void;
  /** How long a refresh token issued here is remembered (issued-refresh-tokens.ts); 0 remembers none. */
  rememberIssuedSeconds?: number;
  /** With Redis: the durable record of codes redeemed and tokens revoked (durable-revocations.ts). */
  revocations?: DurableRevocations;
}

const epoch = () => Math.floor(Date.now() / 1000);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A single-use write that lost to another request throws the engine's InvalidGrant (adapter.ts). */
async function wonSingleUse(consume: Promise<void>): Promise<boolean> {
  try {
    await consume;
    return true;
  } catch (error) {
    if (error instanceof errors.InvalidGrant) return false;
    throw error;
  }
}

export function withTokenCommits(adapters: AdapterFactory, options: TokenStorageOptions): AdapterFactory {
  const issued = options.rememberIssuedSeconds ? new IssuedRefreshTokens(options.rememberIssuedSeconds) : undefined;
  return (model) => {
    const adapter = adapters(model);
    const { revocations } = options;
    if (model === 'AuthorizationCode') return deferredCodes(adapter, revocations);
    if (model === 'RefreshToken' && isRefreshTokenAdapter(adapter)) return refreshTokenFamilies(adapter, options, issued);
    if (model === 'AccessToken') return storedAlongside(revocations ? revocableTokens(adapter, revocations) : adapter);
    if (model === 'ClientCredentials' && revocations) return revocableTokens(adapter, revocations);
    return adapter;
  };
}

/** In a code exchange, starts `write` beside the request's other writes (token-commit.ts waits for them). */
async function alongside(write: () => Promise<unknown>): Promise<void> {
  const request = currentTokenRequest();
  if (request?.redeemsCode) request.storing(write());
  else await write();
}

function storedAlongside(adapter: ModelAdapter): ModelAdapter {
  return { ...adapter, upsert: (id, payload, expiresIn) => alongside(() => adapter.upsert(id, payload, expiresIn)) };
}

function deferredCodes(adapter: ModelAdapter, revocations: DurableRevocations | undefined): ModelAdapter {
  const redeem = (id: string) => {
    const consume = () => wonSingleUse(adapter.consume(id));
    return revocations ? redeemCodeOnce(revocations, id, { consume, find: () => adapter.find(id) }) : consume();
  };
  return {
    ...adapter,
    async find(id) {
      const payload = await adapter.find(id);
      // A code of a grant whose tokens were revoked after it was issued: as if gone.
      if (payload && revocations?.record.revokedWithGrant(payload)) return undefined;
      if (payload) currentTokenRequest()?.found.set(id, { grantId: payload.grantId });
      return payload;
    },
    async consume(id) {
      const request = currentTokenRequest();
      // Outside the token endpoint (the portal redeems its own codes in-process), consumed at once.
      if (!request) {
        if (!(await redeem(id))) throw alreadyConsumed('AuthorizationCode');
        return;
      }
      request.commits.push({
        kind: 'authorization code',
        grantId: request.found.get(id)?.grantId,
        run: () => redeem(id),
      });
    },
  };
}

function refreshTokenFamilies(
  adapter: RefreshTokenAdapter,
  options: TokenStorageOptions,
  issued: IssuedRefreshTokens | undefined,
): RefreshTokenAdapter {
  return {
    ...adapter,

    async find(id) {
      const request = currentTokenRequest();
      if (!request) return (await adapter.lookup(id, epoch())).payload;
      // Its storage key, once: the memory's, and the successor's parent and the commit's below.
      const key = storageKey(id);
      // In a token request, which commits the rotation, a token issued here is taken as it was issued.
      const recalled = issued?.recall(key, epoch());
      if (recalled) {
        const { parent = null, ...payload } = recalled;
        request.found.set(id, {
          key,
          grantId: payload.grantId,
          parent,
          rotation: {},
          clientId: text(payload.clientId),
          accountId: text(payload.accountId),
        });
        return restoreId('RefreshToken', id, payload);
      }
      const found = await adapter.lookup(id, epoch());
      const { family } = found;
      if (found.standing === 'reuse' && family && family.clientId === authenticatedClientId()) {
        // A replay by the application's own credentials: the token leaked. Everything issued under
        // the grant ends now, the thief's tokens and the application's alike; the engine then answers
        // invalid_grant, as for any unknown token.
        await options.revokeGrant(family.grantId);
        options.onReuse?.({ kind: 'refresh token', grantId: family.grantId, clientId: family.clientId, accountId: family.accountId });
        return undefined;
      }
      const grantId = family?.grantId ?? found.payload?.grantId;
      request.found.set(id, { key, grantId, parent: found.parent, rotation: {}, clientId: family?.clientId, accountId: family?.accountId });
      return found.payload;
    },

    async consume(id) {
      const request = currentTokenRequest();
      if (!request) return adapter.consume(id);
      const seen = request.found.get(id);
      const rotation = seen?.rotation ?? {};
      const run = async () => {
        const now = epoch();
        const { successor } = rotation;
        const won = await adapter.commitRotation({
          id,
          now,
          successorExpiresAt: rotation.successorExpiresAt,
          successor,
        });
        // Only unused tokens are remembered. Presented again, this one is judged by its family before
        // anything is issued: within the grace, or a reuse that revokes the grant. So is the token it
        // replaced, if this instance still had it (issued here, used elsewhere).
        issued?.forget(seen?.key ?? storageKey(id));
        if (seen?.parent) issued?.forget(seen.parent);
        if (won && successor) issued?.remember(storageKey(successor.id), stripId('RefreshToken', successor.payload), now);
        return won;
      };
      request.commits.push({ kind: 'refresh token', grantId: seen?.grantId, clientId: seen?.clientId, accountId: seen?.accountId, run });
    },

    async upsert(id, payload, expiresIn) {
      // A successor records its parent (the token it replaces), when both are of one family.
      const rotated = rotatedRefreshTokenId();
      const sameFamily = rotated !== undefined && rotated !== id && familyOf(rotated) !== undefined && familyOf(rotated) === familyOf(id);
      if (!sameFamily) {
        // The first token of a family (a code exchange), remembered once it is stored.
        return alongside(async () => {
          await adapter.upsert(id, payload, expiresIn);
          if (familyOf(id) !== undefined) issued?.remember(storageKey(id), stripId('RefreshToken', payload), epoch());
        });
      }
      const seen = currentTokenRequest()?.found.get(rotated);
      const successor = { ...payload, parent: seen?.key ?? storageKey(rotated) };
      const rotation = seen?.rotation;
      if (!rotation) return adapter.upsert(id, successor, expiresIn);
      if (typeof payload.exp === 'number') rotation.successorExpiresAt = payload.exp;
      // Written by the rotation's commit, in the same statement, and only if the rotation wins: a refresh
      // that fails or loses leaves no successor behind (and costs one round trip and one commit, not two).
      rotation.successor = { id, payload: successor, expiresIn };
    },

    async destroy(id) {
      issued?.forget(storageKey(id));
      await adapter.destroy(id);
    },
  };
}

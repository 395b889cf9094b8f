// With Redis configured, authorization codes and access tokens live there, and Redis can come back with an
// older state: a failover to a replica that lagged behind, a restore from a backup or a snapshot. Without
// more, that state brings back what ended after it: a code redeemed since redeems again, an access token
// revoked since is accepted again. So each such end is also written to SQL (adapters/sql/revocations.ts,
// migration 016), before Redis is told:
// - a code's single use is an insert there, at the redemption's commit (token-storage.ts): an insert that
//   finds the code already redeemed is a reuse, treated as a lost commit;
// - a token revoked at the revocation endpoint is recorded there, with its grant: revoking an access token
//   ends every code and token of its grant but keeps the grant (oidc-provider 9.13,
//   lib/actions/revocation.js and lib/helpers/revoke.js, with the default revokeGrantPolicy), so what the
//   grant issued until then is refused too. Every instance holds these in memory (they are rare), and
//   checks a token against them where it is found: no read on the way to userinfo.
// What ends with its grant needs nothing here: the grant is gone from SQL, and the engine refuses a token or
// code whose grant it cannot find. Without Redis none of this is installed: the codes' and tokens' own SQL
// rows are as durable as the record would be.
import { AsyncLocalStorage } from 'node:async_hooks';
import type Koa from 'koa';
import type { ModelAdapter } from '../../../adapters/adapter.ts';
import type { Revocation, RevocationRecord } from '../../../adapters/sql/revocations.ts';
import { ROUTES } from '../paths.ts';

export interface DurableRevocations {
  record: RevocationRecord;
  /** `ttl.accessToken`: the longest an access token (a user's or a server application's) lives. */
  accessTokenSeconds: number;
  /** `ttl.authorizationCode`: the longest a code lives. */
  codeSeconds: number;
}

const epoch = () => Math.floor(Date.now() / 1000);

// The revocation endpoint's requests, so that what the engine destroys there is recorded, and nothing it
// (or the service) destroys elsewhere: a token replaced or ended with its grant needs no record.
const revoking = new AsyncLocalStorage<true>();

/** Marks the revocation endpoint's requests for `revocableTokens` below; other requests pass untouched. */
export function markRevocationRequests(): Koa.Middleware {
  return function markRevocations(ctx, next) {
    return ctx.method === 'POST' && ctx.path === ROUTES.revocation ? revoking.run(true, next) : next();
  };
}

/**
 * Access tokens and server applications' tokens: one revoked at the endpoint is recorded before it is
 * deleted, and one recorded is not found, whatever Redis holds. The check reads memory only.
 */
export function revocableTokens(adapter: ModelAdapter, durable: DurableRevocations): ModelAdapter {
  const { record } = durable;
  return {
    ...adapter,

    async find(id) {
      const payload = await adapter.find(id);
      return payload && (record.revokedToken(id) || record.revokedWithGrant(payload)) ? undefined : payload;
    },

    async destroy(id) {
      if (revoking.getStore()) {
        // Found again for its expiry and grant (the engine found it a moment ago; a rare request). Gone
        // already: another revocation ended it, and recorded it.
        const payload = await adapter.find(id);
        if (payload) {
          const now = epoch();
          const revocations: Revocation[] = [
            { kind: 'token', id, expiresAt: typeof payload.exp === 'number' ? payload.exp : now + durable.accessTokenSeconds },
          ];
          // Its grant stays, and loses every code and token issued so far (see above).
          if (typeof payload.grantId === 'string') {
            const expiresAt = now + Math.max(durable.accessTokenSeconds, durable.codeSeconds);
            revocations.push({ kind: 'grant', grantId: payload.grantId, revokedAt: now, expiresAt });
          }
          await record.revoke(revocations);
        }
      }
      await adapter.destroy(id);
    },
  };
}

/**
 * The single use of a code, in SQL first, then in Redis: false when either says it was used. Only one insert
 * can succeed in SQL; Redis may then find the code consumed (by an instance of a version without this record,
 * during a rolling upgrade: a reuse) or gone. Gone means that a concurrent second redemption, which lost in
 * SQL, has revoked the grant with its codes: this answer is still the one that carries tokens, which that
 * second redemption has just revoked, as for any code presented twice (RFC 6749 §4.1.2).
 * If Redis fails after SQL recorded the use, the record is taken back, so that the failed request consumed
 * nothing and the application's retry works (a commit that fails is a 503).
 */
export async function redeemCodeOnce(
  durable: DurableRevocations,
  id: string,
  redis: { consume(): Promise<boolean>; find(): Promise<unknown> },
): Promise<boolean> {
  // The code's own expiry is not known here; it lives at most `codeSeconds`, so no longer after its use.
  if (!(await durable.record.redeemCode(id, epoch() + durable.codeSeconds))) return false;
  try {
    return (await redis.consume()) || (await redis.find()) === undefined;
  } catch (error) {
    await durable.record.forgetCode(id).catch(() => {});
    throw error;
  }
}

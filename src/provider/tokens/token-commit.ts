// Around the engine's token endpoint: a code redemption or a refresh-token rotation is committed once,
// after the engine has built its whole answer and every new token in it is stored (a code exchange writes
// them side by side, token-storage.ts). So:
// - a request that failed before (a store unreachable while saving a successor or an access token)
//   committed nothing: the presented code or token is still good, and the application's retry works;
// - a commit that fails for an outage is a 503 (storage-outage.ts), and nothing was consumed either;
// - a commit that loses (another request redeemed the code, or moved the family's head first) is a
//   reuse: the grant is revoked with everything issued under it, and the answer is invalid_grant.
import type Koa from 'koa';
import { errors } from 'oidc-provider';
import { openTokenRequest } from '../engine.ts';
import { ROUTES } from '../paths.ts';
import type { TokenStorageOptions } from './token-storage.ts';

export function commitTokenResponses(options: TokenStorageOptions): Koa.Middleware {
  const commitAfter = async (ctx: Koa.Context, next: Koa.Next) => {
    const request = openTokenRequest(ctx.req);
    try {
      await next();
    } catch (error) {
      await request.settled();
      throw error;
    }
    // The engine refused or failed: nothing to commit (a token it had begun to store is never answered).
    if (ctx.status !== 200) return void (await request.settled());
    // Every token of the answer stored before anything is redeemed; a write that failed fails the request.
    await request.stored();
    for (const commit of request.commits) {
      if (await commit.run()) continue;
      if (commit.grantId) {
        await options.revokeGrant(commit.grantId);
        options.onReuse?.({ kind: commit.kind, grantId: commit.grantId, clientId: commit.clientId, accountId: commit.accountId });
      }
      const refused = new errors.InvalidGrant(`${commit.kind} already used`);
      ctx.status = refused.statusCode;
      ctx.body = { error: refused.error, error_description: refused.error_description };
      return;
    }
  };
  return function commitTokens(ctx, next) {
    return ctx.method === 'POST' && ctx.path === ROUTES.token ? commitAfter(ctx, next) : next();
  };
}

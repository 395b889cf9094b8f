// The token endpoint's request as the storage sees it. Redeeming a code or rotating a refresh token is
// committed once, after every token of the response is stored (src/provider/tokens/token-commit.ts): the
// storage wrappers (src/provider/tokens/token-storage.ts) record on the request being handled, which they find
// through the engine's request context, what to commit and the writes of the new tokens in flight.
//
// Relies on oidc-provider 9.13:
// - lib/provider.js: the static `Provider.ctx`, the Koa context of the request being handled (an
//   AsyncLocalStorage store entered by lib/helpers/initialize_app.js for every engine route), readable
//   from adapter calls made while handling it; `ctx.req` is the Node request, which our middleware
//   around the engine shares whatever koa-mount does with the context;
// - lib/shared/client_auth.js: `ctx.oidc.client`, the authenticated client, set before the grant handler;
// - lib/actions/grants/refresh_token.js: `ctx.oidc.entities.RotatedRefreshToken`, set right after the
//   presented token is consumed and before its successor is saved;
// - lib/actions/grants/refresh_token.js and lib/helpers/grant_source.js: the presented token or code is
//   found, then consumed (`consume()`, through the adapter) before any new token is saved;
// - lib/helpers/grant_common.js (`issueTokens`) and lib/actions/grants/refresh_token.js: each new token
//   is saved (`save()`, through the adapter's `upsert`) and only its value is used afterwards; the store
//   is not read back within the request.
import type { IncomingMessage } from 'node:http';
import Provider from 'oidc-provider';
import type { Payload } from '../../../adapters/adapter.ts';

/** What a refresh learnt of the successor it issued, for the rotation's commit. */
export interface PendingRotation {
  successorExpiresAt?: number;
  successor?: { id: string; payload: Payload; expiresIn?: number };
}

/** A write the request must make once its response is complete; false when another request won. */
export interface PendingCommit {
  /** The grant to revoke when another request won (a reuse). */
  grantId: string | undefined;
  /** Whose grant it is, when known, for the security log's reuse line. */
  clientId?: string;
  accountId?: string;
  kind: 'authorization code' | 'refresh token';
  run(): Promise<boolean>;
}

/** What `find` learnt of a presented code or refresh token. */
export interface FoundValue {
  /** The storage key (SHA-256) of a presented refresh token, computed once per request. */
  key?: string;
  grantId?: string;
  /** A refresh token's parent: the storage key of the token it replaced (null for the first). */
  parent?: string | null;
  rotation?: PendingRotation;
  /** Whose grant it is, for the security log. */
  clientId?: string;
  accountId?: string;
}

/** One token request: what its adapter calls found and deferred. */
export class TokenRequest {
  readonly commits: PendingCommit[] = [];
  /** What `find` learnt of each presented value (a code's grant, a refresh token's parent...). */
  readonly found = new Map<string, FoundValue>();
  readonly #writes: Promise<unknown>[] = [];

  /** A code exchange: the code's redemption is among the commits (it is recorded before any token is saved). */
  get redeemsCode(): boolean {
    return this.commits.some((commit) => commit.kind === 'authorization code');
  }

  /**
   * A token of the response, being stored while the engine goes on building the rest of it. Its
   * failure is kept for `stored()`, not reported on its own as an unhandled rejection meanwhile.
   */
  storing(write: Promise<unknown>): void {
    write.catch(() => {});
    this.#writes.push(write);
  }

  /** Every write started by `storing`, done: rejects with the first that failed. */
  async stored(): Promise<void> {
    await Promise.all(this.#writes);
  }

  /** The same, whether or not they failed: for a request that answers an error anyway. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#writes);
  }
}

const requests = new WeakMap<IncomingMessage, TokenRequest>();

/** Marks `req` as a token request whose redemptions are committed after the response is built. */
export function openTokenRequest(req: IncomingMessage): TokenRequest {
  const request = new TokenRequest();
  requests.set(req, request);
  return request;
}

/** The token request being handled, when an adapter call is made for one. */
export function currentTokenRequest(): TokenRequest | undefined {
  const req = Provider.ctx?.req;
  return req ? requests.get(req) : undefined;
}

/** The client that authenticated to the request being handled, if any. */
export function authenticatedClientId(): string | undefined {
  return Provider.ctx?.oidc?.client?.clientId;
}

/** The id of the refresh token the current request is rotating, if it is rotating one. */
export function rotatedRefreshTokenId(): string | undefined {
  return Provider.ctx?.oidc?.entities?.RotatedRefreshToken?.jti;
}

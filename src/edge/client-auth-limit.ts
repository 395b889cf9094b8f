// Limits on failed client authentications at the endpoints where an application presents its secret
// (token, revocation, introspection, pushed authorization requests). Like Keycloak's brute-force
// detection, failures are counted and, past a limit, further attempts are refused for a while, even
// with the right secret. Unlike a lock on the account (or here the client_id) alone, which would let
// anyone on the Internet lock a legitimate application out by sending wrong secrets, the counters are:
//  - per (client_id, IP): the application is refused from the IP that failed, and only from it;
//  - per IP, whatever the client_id: one address trying many client ids is stopped as well.
// A counter per client_id alone is left out on purpose: the secrets are 48 random characters (285 bits)
// that no number of guesses from many addresses finds, so it would protect nothing and hand out a lockout.
//
// Only failures are counted (nothing is written for a successful request; only the two counters are
// read, and with Redis not even they for an address that no instance has seen fail: see
// src/accounts/failure-watch.ts). The per-IP counter is read before the engine runs; the pair's is read by the engine's client
// authentication (src/provider/engine/client-secrets.ts), which alone reads the body where
// client_secret_post carries the client_id, before it compares any secret. Counting after the failure
// lets a burst of parallel requests pass the check together: it is bounded by their number, and what
// follows the burst is refused.
//
// The refusal is `429` with Retry-After and `{"error":"invalid_request"}`: RFC 6749 §5.2 defines no
// "too many attempts" code for the token endpoint; `invalid_client` would tell the application its
// secret is wrong (and invite a rotation), and `temporarily_unavailable` (defined for the authorization
// endpoint only) would blame the server, which is up. The status and Retry-After say "slow down".
import { AsyncLocalStorage } from 'node:async_hooks';
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import type { errors, KoaContextWithOIDC } from 'oidc-provider';
import { isStorageUnavailable } from '../../adapters/unavailable.ts';
import type { Limiter } from '../accounts/rate-limits.ts';
import { securityEvent } from '../log/security-log.ts';
import type { ClientAuthGate } from '../provider/engine.ts';
import { ROUTES } from '../provider/paths.ts';
import { UNAVAILABLE_BODY } from './storage-outage.ts';
import { UNAVAILABLE_RETRY_SECONDS } from '../pages/error-page.ts';

const PATHS: ReadonlySet<string> = new Set([ROUTES.token, ROUTES.revocation, ROUTES.introspection, ROUTES.pushed_authorization_request]);

export const TOO_MANY_FAILURES_BODY = Object.freeze({
  error: 'invalid_request',
  error_description: 'too many failed client authentications, retry later',
});

export interface ClientAuthLimiters {
  clientAuthPerClient: Limiter;
  clientAuthPerIp: Limiter;
}

/** What one request at a limited endpoint learned on its way through the engine. */
interface Attempt {
  ip: string;
  /** The pair (client_id, IP) was over its limit: the engine was told to refuse. */
  refused?: { clientId: string; retryAfter: number };
  /**
   * No failure from this IP is counted: then none of any (client_id, IP) pair is either, since every
   * failure is counted on both (below), and the gate need not read the pair's counter.
   */
  ipClean: boolean;
  /** The engine answered invalid_client. */
  failed?: { clientId?: string; reason: string };
}

export interface ClientAuthLimits {
  /** For the engine: asked before each secret comparison. */
  gate: ClientAuthGate;
  /** Around the engine. */
  middleware: Koa.Middleware;
  /** Follows the engine's error events; call once the engine exists. */
  watch(provider: Provider): void;
}

export function clientAuthLimits(limits: ClientAuthLimiters): ClientAuthLimits {
  const attempts = new AsyncLocalStorage<Attempt>();

  const gate: ClientAuthGate = async (clientId) => {
    const attempt = attempts.getStore();
    if (!attempt) return true; // not one of the limited endpoints (the portal's own code exchange)
    // A storage error thrown here becomes the engine's server_error, answered 503 (storage-outage.ts).
    if (attempt.ipClean) return true;
    const retryAfter = await limits.clientAuthPerClient.blockedFor(pairKey(clientId, attempt.ip));
    if (retryAfter === 0) return true;
    attempt.refused = { clientId, retryAfter };
    return false;
  };

  const limited = async (ctx: Koa.Context, next: Koa.Next) => {
    const ip = ctx.ip;
    let retryAfter: number;
    let ipClean: boolean;
    try {
      const counted = await limits.clientAuthPerIp.counted(ipKey(ip));
      retryAfter = counted.retryAfter;
      // A pair's window longer than the IP's could still hold failures the IP's has forgotten.
      ipClean = counted.count === 0 && limits.clientAuthPerClient.windowSeconds <= limits.clientAuthPerIp.windowSeconds;
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error;
      securityEvent('storage.unavailable', { endpoint: ctx.path, reason: error.backend });
      return answer(ctx, 503, UNAVAILABLE_RETRY_SECONDS, UNAVAILABLE_BODY);
    }
    if (retryAfter > 0) {
      securityEvent('client_auth.throttled', { endpoint: ctx.path, limit: 'clientAuthPerIp', retry_after: retryAfter });
      return answer(ctx, 429, retryAfter, TOO_MANY_FAILURES_BODY);
    }

    const attempt: Attempt = { ip, ipClean };
    await attempts.run(attempt, next);
    if (attempt.refused && ctx.status === 401) {
      const { clientId, retryAfter: wait } = attempt.refused;
      securityEvent('client_auth.throttled', { client_id: clientId, endpoint: ctx.path, limit: 'clientAuthPerClient', retry_after: wait });
      return answer(ctx, 429, wait, TOO_MANY_FAILURES_BODY);
    }
    if (!attempt.failed) return;
    const { clientId, reason } = attempt.failed;
    securityEvent('client_auth.failure', { client_id: clientId, endpoint: ctx.path, reason });
    try {
      await Promise.all([
        limits.clientAuthPerIp.consume(ipKey(ip)),
        clientId === undefined ? undefined : limits.clientAuthPerClient.consume(pairKey(clientId, ip)),
      ]);
    } catch (error) {
      // The engine has answered 401 already, and rightly; the next request's check reports the outage.
      if (!isStorageUnavailable(error)) throw error;
      securityEvent('storage.unavailable', { endpoint: ctx.path, reason: error.backend });
    }
  };

  const middleware: Koa.Middleware = function limitClientAuth(ctx, next) {
    return ctx.method === 'POST' && PATHS.has(ctx.path) ? limited(ctx, next) : next();
  };

  function watch(provider: Provider): void {
    const noteFailure = (ctx: KoaContextWithOIDC, error: errors.OIDCProviderError) => {
      const attempt = attempts.getStore();
      if (!attempt || attempt.refused || error.error !== 'invalid_client' || error.statusCode !== 401) return;
      attempt.failed = { clientId: presentedClientId(ctx), reason: failureReason(error.error_detail) };
    };
    // The engine's error event of each limited endpoint.
    provider.on('grant.error', noteFailure);
    provider.on('revocation.error', noteFailure);
    provider.on('introspection.error', noteFailure);
    provider.on('pushed_authorization_request.error', noteFailure);
  }

  return { gate, middleware, watch };
}

function answer(ctx: Koa.Context, status: number, retryAfter: number, body: object): void {
  ctx.status = status;
  ctx.set('Retry-After', String(retryAfter));
  ctx.set('Cache-Control', 'no-store');
  ctx.remove('WWW-Authenticate');
  ctx.body = { ...body };
}

const pairKey = (clientId: string, ip: string): string => `client:${clientId}\n${ip}`;
const ipKey = (ip: string): string => `ip:${ip}`;

/** The client_id the caller presented: the engine's client when it found one, else as sent. */
function presentedClientId(ctx: KoaContextWithOIDC): string | undefined {
  const found = ctx.oidc?.client?.clientId;
  if (found) return found;
  const param = ctx.oidc?.params?.client_id;
  if (typeof param === 'string' && param) return param.slice(0, 200);
  return basicClientId(ctx.get('Authorization'));
}

function basicClientId(header: string): string | undefined {
  const [scheme, value] = header.split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !value) return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, '%20')).slice(0, 200);
  } catch {
    return undefined;
  }
}

// The engine's detail says which check failed; mapped to a fixed word, so no caller text is logged.
function failureReason(detail: string | undefined): string {
  if (detail === 'client not found') return 'unknown_client';
  if (detail === 'invalid secret provided') return 'invalid_client_secret';
  if (detail?.includes('authentication mechanism')) return 'wrong_auth_method';
  if (detail?.includes('expired')) return 'expired_secret';
  return 'invalid_client';
}

// What an ID assertion request asks, checked as the authorization endpoint checks a request: a known,
// user-facing application, asked from one of its FedCM origins, a PKCE S256 challenge, scopes it was
// registered for (`openid` always), and one of its redirect URIs for the code (the first one on the asking
// origin by default), which the application repeats at the token endpoint as in the redirect flow.
// The application's own parameters come as one JSON string in the form's `params` (FedCM's `params`).
import type { RegisteredClient } from '../clients/registry.ts';
import { fedcmOriginsOf } from '../clients/fedcm-origins.ts';

export interface AssertionRequest {
  client: RegisteredClient;
  origin: string;
  accountId: string;
  scope: string[];
  redirectUri: string;
  codeChallenge: string;
  nonce?: string;
}

/** Why a request is refused: the security log's `reason`, and the FedCM error code the application sees. */
export type Refusal = { reason: string; code: 'invalid_request' | 'unauthorized_client' | 'access_denied' | 'invalid_scope' };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function readParams(form: URLSearchParams): Record<string, unknown> | undefined {
  const raw = form.get('params');
  if (raw === null || raw === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function checkAssertionRequest(
  client: RegisteredClient | undefined,
  origin: string | undefined,
  form: URLSearchParams,
): AssertionRequest | Refusal {
  if (!client) return { reason: 'unknown_client', code: 'invalid_request' };
  // The service's own applications and machine-to-machine ones have no sign-in page of their own to ask from.
  if (client.firstParty || client.appType === 'server' || client.appType === 'mobile')
    return { reason: 'client_type', code: 'unauthorized_client' };
  if (!origin || !fedcmOriginsOf(client).includes(origin)) return { reason: 'unknown_origin', code: 'unauthorized_client' };
  const params = readParams(form);
  if (!params) return { reason: 'malformed_params', code: 'invalid_request' };
  const { code_challenge: challenge, code_challenge_method: method } = params;
  if (typeof challenge !== 'string' || !CHALLENGE.test(challenge)) return { reason: 'missing_code_challenge', code: 'invalid_request' };
  if (method !== 'S256') return { reason: 'code_challenge_method', code: 'invalid_request' };
  const scope = typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : ['openid'];
  if (!scope.includes('openid') || scope.some((s) => !client.scopes.includes(s))) return { reason: 'scope', code: 'invalid_scope' };
  const onOrigin = client.redirectUris.find((uri) => URL.parse(uri)?.origin === origin);
  const redirectUri = typeof params.redirect_uri === 'string' ? params.redirect_uri : (onOrigin ?? client.redirectUris[0]);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) return { reason: 'redirect_uri', code: 'invalid_request' };
  const nonce = typeof params.nonce === 'string' ? params.nonce : undefined;
  const accountId = form.get('account_id') ?? '';
  return { client, origin, accountId, scope: [...new Set(scope)], redirectUri, codeChallenge: challenge, ...(nonce ? { nonce } : {}) };
}

export const isRefusal = (value: AssertionRequest | Refusal): value is Refusal => 'reason' in value;

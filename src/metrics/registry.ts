// The service's Prometheus metrics: one registry for the process, like the process metrics it carries
// (several services embedded in one process add up, as their process does). Each metric is created
// once here and fed by a one-line call where the thing happens; labels are closed sets (a route
// pattern, a status, a grant type), never an id, a client or anything a caller chose freely.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { StorageUnavailableError } from '../../adapters/unavailable.ts';
import { hashingQueueLength } from '../accounts/password.ts';

export const registry = new Registry();

let processMetrics = false;
/**
 * The process's own metrics (CPU, memory, event-loop delay, garbage collections), gathered from the
 * first service that turns metrics on. Not before: they watch every garbage collection and sample the
 * event loop every few milliseconds, work that a service without metrics would do for nobody.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry, prefix: 'signin_' });
}

const httpRequests = new Counter({
  name: 'signin_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'signin_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  // From a cached discovery answer (ms) to a password sign-in on a busy machine (argon2id, queued).
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const signIns = new Counter({
  name: 'signin_sign_ins_total',
  help: 'Password sign-ins, by outcome (success, failure, throttled)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const phoneMessages = new Counter({
  name: 'signin_phone_codes_total',
  help: 'One-time codes asked for by phone, by outcome (sent, throttled, budget_exhausted, gateway_failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const tokensIssued = new Counter({
  name: 'signin_tokens_issued_total',
  help: 'Successful token endpoint answers, by grant type',
  labelNames: ['grant_type'] as const,
  registers: [registry],
});

const tokenReuse = new Counter({
  name: 'signin_token_reuse_total',
  help: 'Authorization codes and refresh tokens presented again (the grant is revoked), by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const fedcmEvents = new Counter({
  name: 'signin_fedcm_total',
  help: "Sign-ins through the browser's account chooser (FedCM), by event (assertion, continued, refused, disconnected)",
  labelNames: ['event'] as const,
  registers: [registry],
});

const storageErrors = new Counter({
  name: 'signin_storage_errors_total',
  help: 'Requests that failed because a storage backend was unreachable, by backend',
  labelNames: ['backend'] as const,
  registers: [registry],
});

new Gauge({
  name: 'signin_password_hashing_queue_length',
  help: 'Password hashes waiting for a free slot (the number in flight is bounded by the cores)',
  registers: [registry],
  collect() {
    this.set(hashingQueueLength());
  },
});

/** One answered request. The hot paths pay one counter increment and one histogram observation. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status });
  httpDuration.observe({ method, route }, seconds);
}

export type SignInOutcome = 'success' | 'failure' | 'throttled';
export const countSignIn = (outcome: SignInOutcome): void => signIns.inc({ outcome });

export type PhoneCodeOutcome = 'sent' | 'throttled' | 'budget_exhausted' | 'gateway_failed';
export const countPhoneCode = (outcome: PhoneCodeOutcome): void => phoneMessages.inc({ outcome });

// Grant types are a closed set of the engine's; anything else (it refuses them) is not counted apart.
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']);
export const countTokenIssued = (grantType: unknown): void =>
  tokensIssued.inc({ grant_type: typeof grantType === 'string' && GRANT_TYPES.has(grantType) ? grantType : 'other' });

export type FedcmEvent = 'assertion' | 'continued' | 'refused' | 'disconnected';
export const countFedcm = (event: FedcmEvent): void => fedcmEvents.inc({ event });

export const countTokenReuse = (kind: 'authorization_code' | 'refresh_token'): void => tokenReuse.inc({ kind });

/** A storage outage met by a request: counted under the backend that was unreachable. */
export function countStorageError(error: unknown): void {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof StorageUnavailableError) return void storageErrors.inc({ backend: e.backend });
  }
}

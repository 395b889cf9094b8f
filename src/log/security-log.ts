// The security event log: one structured line per event (who, what, from where, how it ended), for the
// operator and their alerting. Call `securityEvent(name, fields)` from anywhere a request is being served:
// the line is written by that service's logger, with the request id and client IP of the request, which
// the request-id middleware (src/edge/request-id.ts) makes known. Outside a request (a tool, a
// timer) the line goes to the process's default logger (stdout, JSON).
//
// Fields are typed on purpose: there is no free-form bag, so a password, secret, code, token, cookie or
// full e-mail address has no field to travel in. An address is logged by its domain (`emailDomain`).
import type { Logger } from 'pino';
import { currentRequest } from './request-context.ts';
import { defaultLogger } from './logger.ts';
import { SECURITY_EVENTS, type Outcome, type SecurityEventName } from './security-events.ts';

export type { Outcome, SecurityEventName } from './security-events.ts';

/** What an event may say. Every field is optional; the request's id and IP are added when known. */
export interface SecurityEventFields {
  /** Overrides the event's usual outcome (see the catalogue). */
  outcome?: Outcome;
  client_id?: string;
  /** The internal account id (never the e-mail address or the username). */
  account_id?: string;
  /** Taken from the request when not given. */
  ip?: string;
  /** The grant an event concerns or revoked (an identifier, not a credential). */
  grant_id?: string;
  /** A short machine word saying why: `wrong_password`, `unknown_account`, `invalid_client_secret`... */
  reason?: string;
  /** Where it happened: `interaction`, `account_page`, `portal`, `cli`, `engine`, `fedcm`. */
  source?: 'interaction' | 'account_page' | 'portal' | 'cli' | 'engine' | 'fedcm';
  /** The protocol endpoint or page path (no query string). */
  endpoint?: string;
  /** The return address an authorization request named, when refused outside production (never in production). */
  redirect_uri?: string;
  /** For throttling: which limit, and the seconds the caller must wait. */
  limit?: string;
  retry_after?: number;
  /** The domain part of an e-mail address, never the address. */
  email_domain?: string;
  /** A signing key's `kid` and algorithm (public identifiers). */
  key_id?: string;
  alg?: string;
  /** Scopes granted or revoked (names only). */
  scopes?: string[];
  /** How a sign-in was proved, for a sign-in by other means than the password: an RFC 8176 `amr` value (`sms`, `otp`). */
  method?: 'sms' | 'otp' | 'passkey';
  /** Who acted, when not the account: for the CLI, the operating-system user who ran the command. */
  actor?: string;
}

let observer: ((name: SecurityEventName) => void) | undefined;

/** Called with the name of every event of a request, after its line: how the metrics count them. */
export function observeSecurityEvents(fn: (name: SecurityEventName) => void): void {
  observer = fn;
}

/** One security event, written by the logger of the request being served (else the default logger). */
export function securityEvent(name: SecurityEventName, fields: SecurityEventFields = {}): void {
  writeEvent(currentRequest()?.logger ?? defaultLogger(), name, fields);
  observer?.(name);
}

/**
 * An unexpected error, with its stack, for the operator only: the client is told nothing of it. The
 * message and stack of our own errors say where, not what the request carried.
 */
export function unexpectedError(error: unknown, fields: SecurityEventFields = {}): void {
  const logger = currentRequest()?.logger ?? defaultLogger();
  const err = error instanceof Error ? error : new Error(String(error));
  logger.error({ ...lineFields('error.unexpected', fields), err: { type: err.name, message: err.message, stack: err.stack } });
}

/** Writes one event through the given logger (the CLI's, which has no request). */
export function writeEvent(logger: Logger, name: SecurityEventName, fields: SecurityEventFields = {}): void {
  const line = lineFields(name, fields);
  // Successes are routine (info); failures and refusals are what an operator watches for (warn).
  if (line.outcome === 'success') logger.info(line);
  else logger.warn(line);
}

/** The e-mail address's domain, lowercased: enough to see a campaign, not who was targeted. */
export function emailDomain(address: string | undefined): string | undefined {
  const at = address?.lastIndexOf('@') ?? -1;
  return at < 0
    ? undefined
    : address!
        .slice(at + 1, at + 254)
        .trim()
        .toLowerCase() || undefined;
}

function lineFields(name: SecurityEventName, fields: SecurityEventFields): Record<string, unknown> {
  const request = currentRequest();
  const { outcome, ip, ...rest } = fields;
  return {
    event: name,
    outcome: outcome ?? SECURITY_EVENTS[name].outcome,
    request_id: request?.requestId,
    ip: ip ?? request?.ip,
    ...dropUndefined(rest),
  };
}

function dropUndefined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

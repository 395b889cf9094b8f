// What every gateway does: hand one message to its provider, or throw a GatewayError saying why, by a
// short word and an HTTP status, never by the provider's text (it may quote the number or the message).
import type { CodeChannel } from '../code-store.ts';

export interface CodeMessage {
  /** E.164, `+2250707123456`. */
  to: string;
  /** The whole SMS text, WebOTP line included. */
  text: string;
  /** The code alone, for providers whose templates take it as a parameter (WhatsApp). */
  code: string;
  locale: 'fr' | 'en';
}

export interface CodeGateway {
  /** `sms` or `whatsapp`: what the user is told to look at, and the sign-in's `amr`. */
  readonly channel: CodeChannel;
  /** A name for the log: `orange`, `whatsapp`, `webhook`. */
  readonly name: string;
  send(message: CodeMessage): Promise<void>;
}

export class GatewayError extends Error {
  override name = 'GatewayError';

  constructor(
    readonly reason: 'unreachable' | 'refused' | 'auth' | 'timeout',
    readonly status?: number,
  ) {
    super(`the message gateway failed: ${reason}${status ? ` (${status})` : ''}`);
  }
}

/** Each provider call waits this long at most: the user is waiting on the page. */
export const GATEWAY_TIMEOUT_MS = 10_000;

/** A fetch that fails as a GatewayError: a network error, a timeout, or a status outside 2xx. */
export async function gatewayFetch(url: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS) });
  } catch (error) {
    throw new GatewayError((error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable');
  }
  if (res.status === 401 || res.status === 403) throw new GatewayError('auth', res.status);
  if (res.status < 200 || res.status > 299) throw new GatewayError('refused', res.status);
  return res;
}

// The deployment's SIM-swap check (phone.simSwap), in the shape of the CAMARA SIM Swap API: POST its
// `check` URL with `{ "phoneNumber": "+225...", "maxAge": <hours> }`, answered `{ "swapped": true|false }`.
// Asked after a right code and before it signs anyone in: a SIM changed within `maxAge` hours may be in
// the hands of whoever took it over (the SIM-swap fraud against mobile money). A check that cannot be
// made (unreachable, an odd answer) refuses too: the password still signs in.
import type { PhoneConfig } from '../config/phone-schema.ts';

export type SimSwapVerdict = 'not_swapped' | 'swapped' | 'unavailable';

export type SimSwapCheck = (e164: string) => Promise<SimSwapVerdict>;

const TIMEOUT_MS = 5000;

/** The check the config describes; without a `phone.simSwap` section, every number passes. */
export function simSwapCheck(config: PhoneConfig['simSwap']): SimSwapCheck {
  if (!config) return async () => 'not_swapped';
  return async (e164) => {
    try {
      const res = await fetch(config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(config.bearerToken ? { authorization: `Bearer ${config.bearerToken}` } : {}),
        },
        body: JSON.stringify({ phoneNumber: e164, maxAge: config.maxAgeHours }),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) return 'unavailable';
      const body = (await res.json()) as { swapped?: unknown };
      if (body.swapped === false) return 'not_swapped';
      return body.swapped === true ? 'swapped' : 'unavailable';
    } catch {
      return 'unavailable';
    }
  };
}

// The refresh tokens this instance issued and has not seen used, remembered for a while, so that their
// use reads no Postgres row: an application refreshes when its access token ends, and with one instance
// (or the same one again) it presents a token issued here. The token endpoint then sends two statements
// to the stores instead of three: the access token's save and the rotation's commit. A token once used
// is forgotten (token-storage.ts): presented again, in parallel within the grace or as a replay, it is
// judged by its family before anything is issued.
//
// Why nothing needs to be told when a token stops being good elsewhere (used or revoked on another
// instance, its grant ended): what is remembered decides nothing. Every refresh is granted by its
// rotation's commit (token-commit.ts), one statement on the family's row that moves the head only from a
// live token, or keeps it within the grace; a remembered token that was retired meanwhile loses there,
// and is answered as the reuse it is (its grant revoked). The read this saves is the one the commit
// repeats. So the memory is only consulted by a token request that commits (every refresh rotates,
// refresh-lifetimes.ts); a revocation or an introspection asks the store.
//
// Kept by storage key, as the stores keep them (a dump of the process holds no token), and as text,
// since the engine changes the payloads it is given. Bounded in number and age: at most MAX_ENTRIES
// (about 700 bytes each, 7 MiB in all), each for at most `seconds` and never beyond its own expiry.
import type { Payload } from '../../../adapters/adapter.ts';

export const MAX_ENTRIES = 10_000;

/**
 * How long an issued token is remembered: an application refreshes when its access token ends, or soon
 * after (a phone that slept), so the access token's lifetime and a quarter of an hour more.
 */
export function rememberIssuedSeconds(ttl: { accessToken: number }): number {
  return ttl.accessToken + 15 * 60;
}

interface Entry {
  json: string;
  /** Epoch seconds after which it is forgotten. */
  until: number;
}

export class IssuedRefreshTokens {
  readonly #entries = new Map<string, Entry>();

  constructor(
    /** How long a token is remembered after it was issued. */
    private readonly seconds: number,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** A token just issued (committed), under its storage key. */
  remember(key: string, payload: Payload, now: number): void {
    const until = Math.min(now + this.seconds, typeof payload.exp === 'number' ? payload.exp : Infinity);
    if (until <= now) return;
    // The oldest goes first: a Map iterates in insertion order.
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { json: JSON.stringify(payload), until });
  }

  /** The payload of a token issued here and not forgotten, or undefined (then the store is asked). */
  recall(key: string, now: number): Payload | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return JSON.parse(entry.json) as Payload;
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }
}

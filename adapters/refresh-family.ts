// Refresh-token families. Every code exchange starts a family; each rotation adds a generation. A
// token's value carries its family: `<family id>.<random>`, the family id being 128 random bits and the
// random part the engine's usual opaque value. So any token presented, even one whose row was removed
// long ago, names the family it belongs to, and a replay of an old token is recognised as such.
//
// The rule (docs/architecture/token-lifecycle.md): a family has a head, the storage key of the token whose successors
// are live (none before the first rotation, when the first token is the live one). A presented token is
// - live when its parent is the head: it may be used, and using it makes it the head;
// - within the grace when it is the head itself and was rotated less than the reuse grace ago: a
//   parallel refresh of the application, which gets a sibling of the successor it already got;
// - a reuse otherwise (an older token, a sibling whose brother was used, the head after the grace):
//   the grant is revoked at once.
import { randomBytes } from 'node:crypto';

const SEPARATOR = '.';

/** A new family id: 128 random bits, base64url (the alphabet of the engine's ids, which has no dot). */
export function newFamilyId(): string {
  return randomBytes(16).toString('base64url');
}

/** The value of a refresh token of `family`, around the engine's random id. */
export function familyTokenValue(family: string, random: string): string {
  return `${family}${SEPARATOR}${random}`;
}

/** The family a refresh token names, or undefined for a value of no family. */
export function familyOf(value: string): string | undefined {
  const at = value.indexOf(SEPARATOR);
  return at > 0 ? value.slice(0, at) : undefined;
}

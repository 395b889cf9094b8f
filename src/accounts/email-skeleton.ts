// When two e-mail addresses are one address to the account store. An address that only looks like another
// one (`alice@exаmple.org` with a Cyrillic а beside `alice@example.org`) would let its owner pass for the
// other's owner, in a list of accounts, in a support exchange, on the consent screen of an application that
// shows the address. So addresses are kept unique by their confusable skeleton (Unicode TS #39 §4, as
// usernames are, username-key.ts), with two differences:
//  - case is folded first: an address is the same mailbox in any case (the store's unique index says so),
//    so `aIice@` (capital I) is `aiice@`, another mailbox, not a look-alike of `alice@`;
//  - only characters outside ASCII are mapped to their prototypes. Two ASCII addresses are two mailboxes
//    that a mail server tells apart, often of two people (`bob0@` and `bobo@`, `rn@` and `m@`), and an
//    address is the one thing a user cannot choose again; the look-alikes used to pass for someone are the
//    other scripts' letters and the compatibility forms (full-width letters), which NFKC folds.
//
// An internationalized domain is stored in one form: the A-label (`xn--bcher-kva.example` for
// `bücher.example`), as node:url's domainToASCII writes it (UTS #46: case, width and compatibility forms
// folded). It is the form DNS and every mail server use (one without SMTPUTF8 takes no other), it is ASCII,
// so SQL's lower() and JavaScript's agree on it, and it is what applications receive in the `email` claim,
// which validators written for ASCII addresses accept. The skeleton reads the domain in its Unicode form, so
// that a look-alike written in another script is caught whichever way it was typed. The local part is kept
// as typed: it is the receiving mail server's to interpret.
import { domainToASCII, domainToUnicode } from 'node:url';
import { CONFUSABLES } from './confusables.ts';

/** The local part and the domain: split at the last `@` (a quoted local part may hold one). */
function partsOf(address: string): { local: string; domain: string } | undefined {
  const at = address.lastIndexOf('@');
  return at <= 0 ? undefined : { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/** The domain as an A-label, or as typed when it is not a domain name (the account rules refuse those). */
function asciiDomain(domain: string): string {
  return domainToASCII(domain) || domain;
}

/** The address as the store keeps it: trimmed, its domain as an A-label. */
export function storedEmail(address: string): string {
  const trimmed = address.trim();
  const parts = partsOf(trimmed);
  return parts ? `${parts.local}@${asciiDomain(parts.domain)}` : trimmed;
}

/** TS #39's skeleton of lower-cased text, mapping only the characters outside ASCII. */
function skeletonOf(text: string): string {
  const decomposed = text.normalize('NFKC').toLowerCase().normalize('NFD');
  let mapped = '';
  for (const char of decomposed) mapped += char.charCodeAt(0) < 0x80 ? char : (CONFUSABLES.get(char) ?? char);
  return mapped.normalize('NFD').toLowerCase();
}

/** The confusable skeleton of an address: the same for addresses that are one address to a reader. */
export function emailSkeleton(address: string): string {
  const trimmed = address.trim();
  const parts = partsOf(trimmed);
  if (!parts) return skeletonOf(trimmed);
  const ascii = asciiDomain(parts.domain);
  return `${skeletonOf(parts.local)}@${skeletonOf(domainToUnicode(ascii) || ascii)}`;
}

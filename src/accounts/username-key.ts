// When two usernames are the same name to a reader. A username is a public handle: one that only looks
// like another (`ａｌｉｃｅ` in full-width letters, `аlice` with a Cyrillic а, `aIice` with a capital I)
// would let its owner pass for the other. So usernames are compared
//  - after NFKC (compatibility forms: full-width letters, ligatures, superscripts) and case folding,
//    which the account store's unique index on the lower-cased name does for case;
//  - by their confusable skeleton (Unicode TS #39 §4): each character replaced by the prototype it is
//    mistaken for (confusables.ts), so names that only look alike share one skeleton, kept unique;
//  - and a username is written in one script (TS #39 §5.2, "highly restrictive"): Latin letters mixed
//    with Cyrillic or Greek ones are refused whether or not another account looks the same.
import { CONFUSABLES } from './confusables.ts';

/** The name as compared: compatibility forms folded (NFKC), then lower case. */
export function usernameKey(username: string): string {
  return username.trim().normalize('NFKC').toLowerCase();
}

/**
 * The confusable skeleton: NFKC, then TS #39's skeleton (NFD, each character to its prototype, NFD
 * again), then lower case. The capital I is mapped (to l) before the case is folded, so `aIice` and
 * `alice` share one skeleton; `ALICE` and `alice` are told apart here but share one usernameKey.
 */
export function usernameSkeleton(username: string): string {
  const decomposed = username.trim().normalize('NFKC').normalize('NFD');
  let mapped = '';
  for (const char of decomposed) mapped += CONFUSABLES.get(char) ?? char;
  return mapped.normalize('NFD').toLowerCase();
}

// The scripts a name's letters are told apart by; any other script is one more, named "other".
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Ethiopic',
  'Cherokee',
  'Mongolian',
  'Tifinagh',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`^\\p{Script=${script}}$`, 'u')] as const);
const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** TS #39 "highly restrictive": one script, or Latin with the scripts written together in Japanese, Chinese or Korean. */
const ALLOWED_MIXES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The scripts of the name's letters and digits (digits, `.`, `_` and `-` are common to every script). */
export function scriptsOf(username: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of username.normalize('NFKC')) {
    if (NEUTRAL.test(char)) continue;
    scripts.add(SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'other');
  }
  return scripts;
}

/** Whether the name mixes scripts in a way TS #39's highly restrictive level refuses. */
export function mixesScripts(username: string): boolean {
  const scripts = scriptsOf(username);
  if (scripts.size <= 1) return false;
  return !ALLOWED_MIXES.some((allowed) => [...scripts].every((script) => allowed.has(script)));
}

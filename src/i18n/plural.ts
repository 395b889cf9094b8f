// Messages that count. A catalog writes the forms of a counted word in a plural block, in the
// ICU MessageFormat syntax translators know:
//
//   'Réessayez dans {minutes, plural, one {# minute} other {# minutes}}.'
//
// Each form is keyed by a CLDR plural category (`zero`, `one`, `two`, `few`, `many`, `other`) or by an
// exact value (`=0`); `#` stands for the number. Intl.PluralRules picks the category of the language,
// so the rules of French (0 and 1 are `one`), English (only 1 is `one`) and any language added later
// come from CLDR, not from code here. `other` is required: it is what a missing category falls back to.

/** The CLDR plural categories a form may be keyed by. */
export const PLURAL_CATEGORIES: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

export interface PluralBlock {
  /** The variable that holds the count, e.g. `minutes`. */
  name: string;
  /** The forms, keyed by category or `=n`. */
  forms: Readonly<Record<string, string>>;
  /** Where the block starts and ends (exclusive) in the message. */
  start: number;
  end: number;
}

const rulesByLocale = new Map<string, Intl.PluralRules>();

/** The CLDR category of `count` in `locale` ("one", "other"...). */
export function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  let rules = rulesByLocale.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    rulesByLocale.set(locale, rules);
  }
  return rules.select(count);
}

const BLOCK_START = /\{\s*(\w+)\s*,\s*plural\s*,/g;

/**
 * The plural blocks of a message, in order. A block that does not parse (unbalanced braces, a form
 * without its text) is not returned, and is left as written by `fillPlurals`; the catalog tests
 * check that every `{x, plural,` of the catalogs parses.
 */
export function pluralBlocks(message: string): PluralBlock[] {
  const blocks: PluralBlock[] = [];
  for (const match of message.matchAll(BLOCK_START)) {
    if (blocks.length && match.index < blocks[blocks.length - 1].end) continue; // nested in the previous one
    const block = parseForms(message, match.index + match[0].length);
    if (block) blocks.push({ name: match[1], forms: block.forms, start: match.index, end: block.end });
  }
  return blocks;
}

function parseForms(message: string, from: number): { forms: Record<string, string>; end: number } | undefined {
  const forms: Record<string, string> = {};
  let i = from;
  for (;;) {
    while (/\s/.test(message[i] ?? '')) i += 1;
    if (message[i] === '}') return Object.keys(forms).length ? { forms, end: i + 1 } : undefined;
    const selector = /^(=\d+|\w+)\s*\{/.exec(message.slice(i));
    if (!selector) return undefined;
    i += selector[0].length;
    // The form runs to its matching brace: it may hold `{name}` placeholders of its own.
    const textStart = i;
    for (let depth = 1; depth > 0; i += 1) {
      if (i >= message.length) return undefined;
      if (message[i] === '{') depth += 1;
      else if (message[i] === '}') depth -= 1;
    }
    forms[selector[1]] = message.slice(textStart, i - 1);
  }
}

/** The form for `count`: an exact `=n` first, then the language's category, then `other`. */
export function selectForm(forms: Readonly<Record<string, string>>, locale: string, count: number): string | undefined {
  return forms[`=${count}`] ?? forms[pluralCategory(locale, count)] ?? forms.other;
}

/**
 * Replaces each plural block whose variable holds a number with the form that number takes in
 * `locale`, `#` written as the number. A block whose variable is missing or not a number stays as written.
 */
export function fillPlurals(message: string, vars: Readonly<Record<string, string | number>>, locale: string): string {
  const blocks = pluralBlocks(message);
  let out = '';
  let last = 0;
  for (const block of blocks) {
    const value = Object.hasOwn(vars, block.name) ? vars[block.name] : undefined;
    const count = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    const form = Number.isFinite(count) ? selectForm(block.forms, locale, count) : undefined;
    if (form === undefined) continue;
    out += message.slice(last, block.start) + form.replaceAll('#', String(value));
    last = block.end;
  }
  return out + message.slice(last);
}

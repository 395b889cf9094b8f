// The validation library's findings about a config file, said in plain words: what the field must be
// and what was found there ("storage.requestDeadlineMs must be a number, got the text "abc""), and for a
// misspelt key the known one it probably is. Messages the schema wrote itself are kept as they are.
import type { z } from 'zod';
import type { ConfigProblem } from './config-error.ts';
import { closestName } from './did-you-mean.ts';

type Issue = z.core.$ZodIssue;

/** The library's own wordings, which say what went wrong in its terms rather than the file's. */
const LIBRARY_WORDING = /^(Invalid|Too small|Too big|Unrecognized)/;

const KINDS: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a section (key: value lines)',
  url: 'a URL',
};

/** What a value found in the file is, for a reader: `the text "abc"`, `the number 5`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'a section';
}

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    root,
  );

const quoteAll = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * One problem per issue. `input` is the config as checked (for the value found at the issue's path);
 * `keysAt` gives the keys the schema knows at a path (for "did you mean").
 */
export function plainProblems(issues: readonly Issue[], input: unknown, keysAt: (path: string[]) => string[]): ConfigProblem[] {
  return issues.flatMap((issue): ConfigProblem[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const near = closestName(key, keysAt(path));
        return { field: [...path, key].join('.'), message: near ? `unknown key; did you mean ${near}?` : 'unknown key' };
      });
    }
    return [{ field: path.join('.') || '(root)', message: plainMessage(issue, valueAt(input, issue.path)) }];
  });
}

function plainMessage(issue: Issue, found: unknown): string {
  const got = `, got ${describeValue(found)}`;
  if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) {
    return `must be one of ${quoteAll(issue.options)}${got}${suggestion(found, issue.options)}`;
  }
  if (!LIBRARY_WORDING.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (found === undefined) return 'is required';
      return `must be ${KINDS[issue.expected] ?? issue.expected}${got}`;
    case 'invalid_value':
      return `must be one of ${quoteAll(issue.values)}${got}${suggestion(found, issue.values)}`;
    case 'invalid_format':
      return `must be ${KINDS[issue.format] ?? `a valid ${issue.format}`}${got}`;
    case 'too_small':
      return `${bound(issue.origin, issue.minimum, issue.inclusive, 'small')}${got}`;
    case 'too_big':
      return `${bound(issue.origin, issue.maximum, issue.inclusive, 'big')}${got}`;
    case 'invalid_union': {
      // Each branch's own expectation, when each says only which kind of value it takes.
      const kinds = issue.errors.map((branch) =>
        branch.length === 1 && branch[0].code === 'invalid_type' ? branch[0].expected : undefined,
      );
      if (kinds.length && kinds.every((kind) => kind !== undefined))
        return `must be ${kinds.map((k) => KINDS[k] ?? k).join(', or ')}${got}`;
      return `is not in any of the accepted forms${got}`;
    }
    default:
      return issue.message;
  }
}

function bound(origin: string, limit: number | bigint, inclusive: boolean | undefined, side: 'small' | 'big'): string {
  const n = Number(limit);
  if (origin === 'string') return side === 'small' ? `must be at least ${n} characters long` : `must be at most ${n} characters long`;
  if (origin === 'array') return side === 'small' ? `must list at least ${n} entries` : `must list at most ${n} entries`;
  if (side === 'small') return inclusive ? `must be ${n} or more` : `must be more than ${n}`;
  return inclusive ? `must be ${n} or less` : `must be less than ${n}`;
}

function suggestion(found: unknown, options: readonly unknown[]): string {
  if (typeof found !== 'string') return '';
  const near = closestName(
    found,
    options.filter((o): o is string => typeof o === 'string'),
  );
  return near ? `; did you mean ${JSON.stringify(near)}?` : '';
}

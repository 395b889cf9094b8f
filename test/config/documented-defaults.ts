// Reading the defaults of the config schema, and what a YAML file or docs/reference/configuration.md
// claims about them, so that a test can compare the two. The schema is the one source; every other place
// is checked against it.
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { interpolate } from '../../src/config/interpolate.ts';
import { configSchema } from '../../src/config/schema.ts';

type Tree = Record<string, unknown>;

/** The least a config file must say; everything else has a default or is optional. */
export const MINIMAL: Tree = {
  issuer: 'https://id.example.org',
  secrets: { cookieKeys: ['k'.repeat(40)], pairwiseSalt: 's'.repeat(40) },
};

// Sections whose settings have defaults only once the section is there (a Postgres pool, Redis, SMTP).
const VARIANTS: Tree[] = [
  MINIMAL,
  {
    ...MINIMAL,
    storage: { kind: 'postgres', postgres: { url: 'postgres://db.example.org/signin' }, redis: { url: 'redis://cache.example.org' } },
  },
  { ...MINIMAL, mail: { smtp: { host: 'smtp.example.org' } } },
  {
    ...MINIMAL,
    phone: {
      orange: { clientId: 'id', clientSecret: 'secret', senderAddress: 'tel:+2250000' },
      whatsapp: { phoneNumberId: '1065', accessToken: 'token', template: 'code' },
      webhook: { url: 'https://sms.example.org/send' },
      simSwap: { url: 'https://operator.example.org/sim-swap/v0/check' },
    },
  },
];

const isTree = (value: unknown): value is Tree => !!value && typeof value === 'object' && !Array.isArray(value);

/** Every leaf (a scalar or an array) by its dotted path; absent values are not leaves. */
export function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (!isTree(value)) {
    if (value !== undefined) found.set(prefix, value);
    return found;
  }
  for (const [key, child] of Object.entries(value)) {
    for (const [path, leaf] of leaves(child, prefix ? `${prefix}.${key}` : key)) found.set(path, leaf);
  }
  return found;
}

export function valueAt(tree: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isTree(node) ? node[key] : undefined), tree);
}

function without(tree: Tree, path: string): Tree {
  const [key, ...rest] = path.split('.');
  const { [key]: child, ...others } = tree;
  if (!rest.length || !isTree(child)) return others;
  return { ...others, [key]: without(child, rest.join('.')) };
}

function merged(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = isTree(value) && isTree(out[key]) ? merged(out[key], value) : value;
  return out;
}

/** Whether the schema accepts this config once the minimal keys are added. */
export const accepts = (block: Tree): boolean => configSchema.safeParse(merged(MINIMAL, block)).success;

/** Whether the minimal config without this key is refused, i.e. the key has no default. */
export const isRequired = (path: string): boolean => !configSchema.safeParse(without(MINIMAL, path)).success;

/**
 * Whether a key that only some configs have (`mail.smtp.host`, `storage.postgres.url`) is required where
 * it stands: a config that writes it is refused without it. False when no sample config writes it.
 */
export function isRequiredWhereItStands(path: string): boolean {
  const writer = VARIANTS.find((variant) => [...leaves(variant).keys()].some((p) => p === path || p.startsWith(`${path}.`)));
  return !!writer && !configSchema.safeParse(without(writer, path)).success;
}

/** Whether the schema knows this key: set in a complete config, it is not refused as unknown (its value may be). */
export function isKnownKey(path: string): boolean {
  const setting = path
    .split('.')
    .reverse()
    .reduce<unknown>((value, key) => ({ [key]: value }), null) as Tree;
  return VARIANTS.some((variant) => {
    const parsed = configSchema.safeParse(merged(configSchema.parse(variant) as Tree, setting));
    return parsed.success || !parsed.error.issues.some((issue) => issue.code === 'unrecognized_keys');
  });
}

/** Every value the schema fills in by itself, by dotted path. */
export function schemaDefaults(): Map<string, unknown> {
  const defaults = new Map<string, unknown>();
  for (const input of VARIANTS) {
    const given = leaves(input);
    for (const [path, value] of leaves(configSchema.parse(input))) {
      if (given.has(path)) continue;
      if (defaults.has(path) && !isDeepStrictEqual(defaults.get(path), value)) throw new Error(`two defaults for ${path}`);
      defaults.set(path, value);
    }
  }
  return defaults;
}

/**
 * The values a block of a config file shows that differ from what the schema gives when they are
 * left out. Values with no default (required where they stand, or optional and chosen by the
 * operator, such as a URL or a secret) are not compared.
 */
export function differencesFromDefaults(block: Tree): string[] {
  const differences: string[] = [];
  for (const [path, shown] of leaves(block)) {
    const parsed = configSchema.safeParse(without(merged(MINIMAL, block), path));
    if (!parsed.success) continue;
    const actual = valueAt(parsed.data, path);
    if (actual !== undefined && !isDeepStrictEqual(actual, shown)) {
      differences.push(`${path}: shows ${JSON.stringify(shown)}, the schema's default is ${JSON.stringify(actual)}`);
    }
  }
  return differences;
}

// `${NAME:-fallback}` takes its fallback; a bare `${NAME}` stands for a value the operator provides, long
// enough for a secret (32 characters or more).
function withPlaceholders(raw: unknown, text: string): unknown {
  const env = Object.fromEntries([...text.matchAll(/\$\{(\w+)\}/g)].map(([, name]) => [name, `value-of-${name}`.padEnd(40, '-')]));
  return interpolate(raw, env);
}

/**
 * The YAML of a config file as blocks: the live document, then each commented-out block that starts
 * with a top-level key (`# storage:`), up to the first comment line that is prose again.
 */
export function yamlBlocks(text: string): Tree[] {
  const sources: string[] = [];
  let current: string[] | undefined;
  const close = (): void => {
    if (current) sources.push(current.join('\n'));
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const body = /^# ?(.*)$/.exec(line)?.[1];
    const topLevelKey = body !== undefined && /^[a-z][A-Za-z]*:(\s|$)/.test(body);
    const indented = body !== undefined && /^\s+\S/.test(body);
    if (topLevelKey) current ??= [];
    else if (!indented) close();
    if (current && body !== undefined) current.push(body);
  }
  close();
  return [parseYaml(text), ...sources.map((source) => parseYaml(source))].map((raw) => withPlaceholders(raw, text) as Tree);
}

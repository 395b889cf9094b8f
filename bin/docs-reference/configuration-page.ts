// docs/reference/configuration.md: the config file's keys from the schema (types, defaults, ranges,
// `.describe()` texts) and the loader's own behaviour, shown by running it.
import { stringify } from 'yaml';
import { z } from 'zod';
import { DEFAULT_CONFIG_FILE } from '../../src/cli/open-stores.ts';
import { ConfigError, type ConfigProblem } from '../../src/config/config-error.ts';
import { devDefaults } from '../../src/config/dev-defaults.ts';
import { interpolate } from '../../src/config/interpolate.ts';
import { CONFIG_ENV, parseConfig } from '../../src/config/load.ts';
import { configSchema } from '../../src/config/schema.ts';
import { code, fence, table, yamlValue } from './markdown.ts';

interface JsonSchema {
  type?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** A section as the tables show it; `variantOf` names the keys that only one variant of a union requires, and when. */
interface Section extends JsonSchema {
  variantOf?: Record<string, string>;
}

/** One key of the file: a setting, or a section nested in another one. */
interface Key {
  path: string;
  node: JsonSchema;
  /** Whether the file must give it: always, only once its enclosing section or variant is there, or not. */
  required: { always: boolean; where?: string };
}

const isObject = (node: JsonSchema): boolean => !!node.properties;

/**
 * A discriminated union (`storage`) as one section: the discriminator with every value it takes, then
 * the keys of each variant, then those every variant shares. A key that only some variants require is
 * required "with `kind: value`".
 */
function mergeVariants(node: JsonSchema, path: string): Section {
  const variants = node.oneOf ?? node.anyOf ?? [];
  const discriminator = Object.keys(variants[0].properties ?? {}).find((key) =>
    variants.every((v) => v.properties?.[key]?.const !== undefined),
  );
  if (!discriminator) throw new Error(`${path}: a union of sections without a discriminator`);
  const values = variants.map((v) => v.properties![discriminator]);
  const properties: Record<string, JsonSchema> = {
    [discriminator]: {
      type: 'string',
      enum: values.map((v) => v.const),
      description: values.map((v) => `${code(String(v.const))}: ${describe(v, `${path}.${discriminator}`)}`).join('; ') + '.',
    },
  };
  const variantOf: Record<string, string> = {};
  const inAll = (key: string): boolean => variants.every((v) => v.properties?.[key]);
  for (const variant of variants) {
    for (const [key, child] of Object.entries(variant.properties ?? {})) {
      if (key === discriminator || inAll(key) || properties[key]) continue;
      properties[key] = child;
      if (variant.required?.includes(key))
        variantOf[key] = `with \`${path}.${discriminator}: ${String(variant.properties![discriminator].const)}\``;
    }
  }
  for (const [key, child] of Object.entries(variants[0].properties ?? {})) if (key !== discriminator && inAll(key)) properties[key] = child;
  const required = Object.keys(properties).filter((key) => variants.every((v) => v.required?.includes(key)));
  return { type: 'object', description: node.description, default: node.default, properties, required, variantOf };
}

const normalized = (node: JsonSchema, path: string): Section =>
  node.oneOf || (node.anyOf && node.anyOf.every(isObject)) ? mergeVariants(node, path) : node;

function describe(node: JsonSchema, path: string): string {
  if (!node.description) throw new Error(`${path} has no description: give it one with .describe() in src/config/schema.ts`);
  return node.description;
}

/**
 * The keys under `node`, depth first, in the schema's order. `context` says when the keys this section
 * requires must be written: always, or once the section itself is there.
 */
function keysOf(node: JsonSchema, prefix: string, context: Key['required']): Key[] {
  const section = normalized(node, prefix);
  const keys: Key[] = [];
  for (const [name, raw] of Object.entries(section.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const child = normalized(raw, path);
    const variantWhere = section.variantOf?.[name];
    const own = variantWhere !== undefined || (section.required?.includes(name) ?? false);
    const required: Key['required'] = !own ? { always: false } : variantWhere ? { always: false, where: variantWhere } : context;
    keys.push({ path, node: child, required });
    if (isObject(child)) {
      const inner: Key['required'] = required.always ? required : { always: false, where: required.where ?? `in ${code(path)}` };
      keys.push(...keysOf(child, path, inner));
    }
  }
  return keys;
}

/** What a section amounts to when the file leaves it out: its defaults, all the way down. */
function sectionDefault(node: JsonSchema): unknown {
  const out: Record<string, unknown> = { ...(node.default as Record<string, unknown>) };
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const value = isObject(child) ? (child.default === undefined ? undefined : sectionDefault(child)) : child.default;
    if (value !== undefined) out[key] ??= value;
  }
  return out;
}

const valueAt = (tree: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), tree);

// What the schema fills in beyond its declared defaults (a transform, such as the mail outbox), read
// from the parsed development defaults at the keys they do not give themselves.
const DEV_PARSED = configSchema.parse(devDefaults);

function defaultCell(key: Key): string {
  if (key.required.always) return '(required)';
  if (key.node.default !== undefined) return code(yamlValue(isObject(key.node) ? sectionDefault(key.node) : key.node.default));
  const derived = valueAt(devDefaults, key.path) === undefined ? valueAt(DEV_PARSED, key.path) : undefined;
  if (derived !== undefined) return code(yamlValue(derived));
  return key.required.where ? `(required ${key.required.where})` : 'none';
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function typeName(node: JsonSchema): string {
  if (node.anyOf) return [...new Set(node.anyOf.map(typeName))].join(' or ');
  if (isObject(node)) return `{ ${Object.keys(node.properties!).join(', ')} }`;
  if (node.type === 'array') {
    const item = typeName(node.items ?? {});
    return `list of ${item.startsWith('{') ? code(item) : item === 'URL' ? 'URLs' : `${item}s`}`;
  }
  if (node.type === 'string' && node.format === 'uri') return 'URL';
  return node.type ?? 'any';
}

/** The values a setting accepts beyond its type: its choices, its range, its length. */
function allowed(node: JsonSchema): string {
  if (node.enum) return node.enum.map((v) => code(String(v))).join(', ');
  if (node.const !== undefined) return code(String(node.const));
  if (node.anyOf) {
    return node.anyOf
      .map((alt) => (alt.type === 'boolean' ? '`true`, `false`' : [typeName(alt), allowed(alt)].filter(Boolean).join(' ')))
      .join('; or ');
  }
  if (node.type === 'integer' || node.type === 'number') {
    const min =
      node.minimum ?? (node.exclusiveMinimum === undefined ? undefined : node.type === 'integer' ? node.exclusiveMinimum + 1 : undefined);
    const max = node.maximum === MAX_SAFE ? undefined : node.maximum;
    if (min !== undefined && max !== undefined) return `${min} to ${max}`;
    if (min !== undefined) return `${min} or more`;
    if (max !== undefined) return `${max} at most`;
    return '';
  }
  if (node.type === 'string') {
    const { minLength: min, maxLength: max } = node;
    if (min !== undefined && max !== undefined) return `${min} to ${max} characters`;
    if (min !== undefined) return min === 1 ? 'not empty' : `${min} characters or more`;
    if (max !== undefined) return `${max} characters at most`;
    return '';
  }
  if (node.type === 'array') {
    const count =
      node.minItems !== undefined && node.maxItems !== undefined
        ? `${node.minItems} to ${node.maxItems} items`
        : node.minItems !== undefined
          ? `${node.minItems} item${node.minItems === 1 ? '' : 's'} or more`
          : node.maxItems !== undefined
            ? `${node.maxItems} items at most`
            : '';
    const each = node.items && !isObject(node.items) ? allowed(node.items) : '';
    return [count, each && `each ${each}`].filter(Boolean).join(', ');
  }
  return '';
}

function keyRow(key: Key): string[] {
  return [
    code(key.path),
    isObject(key.node) ? 'section' : typeName(key.node),
    defaultCell(key),
    allowed(key.node),
    describe(key.node, key.path),
  ];
}

const KEY_HEADER = ['Key', 'Type', 'Default', 'Allowed', 'Description'];

/** The file's keys: the top-level settings, then each top-level section with its own table. */
function keysRegion(): string {
  const root = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const keys = keysOf(root, '', { always: true });
  const topLevel = Object.keys(root.properties!);
  const loose = keys.filter((k) => !k.path.includes('.') && !isObject(k.node));
  const sections = topLevel.filter((name) => isObject(normalized(root.properties![name], name)));
  const out: string[] = [];
  out.push(`Sections: [top-level settings](#top-level-settings), ${sections.map((s) => `[${code(s)}](#${s.toLowerCase()})`).join(', ')}.`);
  out.push('## Top-level settings', table(KEY_HEADER, loose.map(keyRow)));
  for (const name of sections) {
    const section = keys.find((k) => k.path === name)!;
    const rows = keys.filter((k) => k.path.startsWith(`${name}.`));
    const note = section.required.always ? ' Required.' : '';
    out.push(`## ${code(name)}`, `${describe(section.node, name)}${note}`, table(KEY_HEADER, rows.map(keyRow)));
  }
  return out.join('\n\n');
}

/** `${NAME}` in the file, shown by running the interpolation itself. */
function interpolationRegion(): string {
  const set = { NAME: 'value' };
  const result = (text: string, env: NodeJS.ProcessEnv): string => {
    try {
      const out = interpolate(text, env) as string;
      return out === '' ? 'an empty string' : code(out);
    } catch (error) {
      return `refused: ${code((error as ConfigError).problems[0].message)}`;
    }
  };
  const samples = ['${NAME}', '${NAME:-fallback}', '${NAME:-}', 'redis://${NAME}:6379/0', '$NAME', '${1NAME}'];
  const rows = samples.map((text) => [code(text), result(text, set), result(text, {}), result(text, { NAME: '' })]);
  const numberError = describeProblem(refusal({ ...devDefaults, port: '${PORT}' }, { PORT: '8080' }).problems[0]);
  return [
    table(['In the file', 'With `NAME=value`', 'With `NAME` unset', 'With `NAME` empty'], rows),
    `Only strings are read this way, and the result is a string: \`port: \${PORT}\` with \`PORT=8080\` is refused (${code(numberError)}).`,
  ].join('\n\n');
}

const describeProblem = (p: ConfigProblem): string => `${p.field}: ${p.message}`;

/** How the loader refuses a sample config; a sample it accepts is an error of this script. */
function refusal(raw: unknown, env: NodeJS.ProcessEnv = {}, source?: string): ConfigError {
  try {
    parseConfig(raw, env, source);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`the loader accepts a sample config meant to be refused: ${JSON.stringify(raw)}`);
}

/** The values the service runs on without a file. */
function devDefaultsRegion(): string {
  return [
    `With no \`--config\`, no \`${CONFIG_ENV}\` and no \`./${DEFAULT_CONFIG_FILE}\`, the service runs on these values and the schema's defaults:`,
    fence('yaml', stringify(devDefaults)),
  ].join('\n\n');
}

/** The loader's messages, produced by the loader on sample files. */
function errorsRegion(): string {
  const mistakes = { colour: 'blue', port: '3000', ttl: { session: 0 }, storage: { kind: 'postgres' } };
  const example = refusal({ ...devDefaults, ...mistakes }, {}, '/etc/signin/signin.yaml');
  const written = Object.entries(mistakes).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? Object.entries(value).map(([k, v]) => `${key}.${k}: ${yamlValue(v)}`)
      : [`${key}: ${yamlValue(value)}`],
  );
  const good = {
    issuer: 'https://id.example.org',
    production: true,
    secrets: { cookieKeys: ['c'.repeat(43)], pairwiseSalt: 'p'.repeat(43) },
  };
  const production = [...refusal({ ...devDefaults, production: true }).problems, ...refusal(good).problems];
  const unique = production.filter((p, i) => production.findIndex((q) => describeProblem(q) === describeProblem(p)) === i);
  return [
    `A file with ${written.map(code).join(', ')} (and nothing more under \`storage\`) is refused with:`,
    fence('text', example.message),
    `Once the schema accepts a file, \`production: true\` adds these checks, reported the same way:`,
    table(
      ['Field', 'Message'],
      unique.map((p) => [code(p.field), p.message]),
    ),
  ].join('\n\n');
}

export function configurationRegions(): Record<string, string> {
  return { keys: keysRegion(), interpolation: interpolationRegion(), 'dev-defaults': devDefaultsRegion(), errors: errorsRegion() };
}

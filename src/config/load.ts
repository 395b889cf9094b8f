// Reads, interpolates and validates a provider config file (YAML, a superset of JSON).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigProblem } from './config-error.ts';
import { DEV_COOKIE_KEY, DEV_KEY_ENCRYPTION_KEY, DEV_PAIRWISE_SALT, devDefaults } from './dev-defaults.ts';
import { interpolate } from './interpolate.ts';
import { plainProblems } from './plain-issue.ts';
import { schemaKeysAt } from './schema-keys.ts';
import { configSchema, type SignInConfig } from './schema.ts';

/** Environment variable that names the config file when `--config` is not given. */
export const CONFIG_ENV = 'SIGNIN_CONFIG';

export function parseConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env, source?: string): SignInConfig {
  const config = validate(configSchema, interpolate(raw ?? {}, env), source);
  if (config.production) assertProductionReady(config, source);
  return config;
}

/** A top-level section of the config file. */
export type ConfigSection = keyof SignInConfig;

/**
 * Only the sections a command uses, read and checked: the environment variables of the others (the
 * metrics token, the SMTP password) need not be set to list users. Unknown top-level keys are still
 * refused, and the production rules, which span sections, are the server's.
 */
export function parseConfigSections<S extends ConfigSection>(
  raw: unknown,
  sections: readonly S[],
  env: NodeJS.ProcessEnv = process.env,
  source?: string,
): Pick<SignInConfig, S> {
  const whole = (raw ?? {}) as Record<string, unknown>;
  const unknown =
    typeof whole === 'object' && !Array.isArray(whole) ? Object.keys(whole).filter((key) => !Object.hasOwn(configSchema.shape, key)) : [];
  if (unknown.length) validate(configSchema, whole, source); // reports them as the whole file's check does
  const wanted: Partial<Record<ConfigSection, true>> = Object.fromEntries(sections.map((section) => [section, true]));
  const picked = Object.fromEntries(Object.entries(whole).filter(([key]) => Object.hasOwn(wanted, key)));
  return validate(configSchema.pick(wanted), interpolate(picked, env), source) as unknown as Pick<SignInConfig, S>;
}

function validate<T extends z.ZodType>(schema: T, value: unknown, source?: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ConfigError(
    plainProblems(result.error.issues, value, (path) => schemaKeysAt(configSchema, path)),
    source,
  );
}

function assertProductionReady(config: SignInConfig, source?: string): void {
  const problems: ConfigProblem[] = [];
  if (!config.issuer.startsWith('https://')) {
    problems.push({ field: 'issuer', message: 'production requires an https issuer' });
  }
  if (config.secrets.cookieKeys.includes(DEV_COOKIE_KEY)) {
    problems.push({ field: 'secrets.cookieKeys', message: 'production refuses the development cookie key' });
  }
  if (config.secrets.pairwiseSalt === DEV_PAIRWISE_SALT) {
    problems.push({ field: 'secrets.pairwiseSalt', message: 'production refuses the development pairwise salt' });
  }
  // A database dump must not be enough to mint ID tokens: the private keys there are encrypted.
  const { keyEncryptionKey } = config.secrets;
  if (keyEncryptionKey === DEV_KEY_ENCRYPTION_KEY) {
    problems.push({ field: 'secrets.keyEncryptionKey', message: 'production refuses the development key encryption key' });
  } else if (!keyEncryptionKey && config.keys.source === 'database') {
    problems.push({
      field: 'secrets.keyEncryptionKey',
      message: 'production requires it when keys.source is "database" (it encrypts the signing keys)',
    });
  }
  if (!config.mail.smtp) {
    problems.push({ field: 'mail.smtp', message: 'production sends e-mail over SMTP; the outbox folder is for development' });
  }
  if (problems.length) throw new ConfigError(problems, source);
}

/** Loads the file at `path`, or the one named by SIGNIN_CONFIG, or the development defaults. */
export function loadConfig(path?: string, env: NodeJS.ProcessEnv = process.env): SignInConfig {
  const { raw, source } = readConfigFile(path, env);
  return parseConfig(raw, env, source);
}

/** Like loadConfig, reading and checking only `sections` (parseConfigSections). */
export function loadConfigSections<S extends ConfigSection>(
  path: string | undefined,
  sections: readonly S[],
  env: NodeJS.ProcessEnv = process.env,
): Pick<SignInConfig, S> {
  const { raw, source } = readConfigFile(path, env);
  return parseConfigSections(raw, sections, env, source);
}

function readConfigFile(path: string | undefined, env: NodeJS.ProcessEnv): { raw: unknown; source: string } {
  const file = path ?? env[CONFIG_ENV];
  if (!file) return { raw: devDefaults, source: 'development defaults' };
  const absolute = resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (cause) {
    throw new ConfigError([{ field: '(file)', message: `cannot read ${absolute}: ${(cause as NodeJS.ErrnoException).code ?? cause}` }]);
  }
  try {
    return { raw: parseYaml(text), source: absolute };
  } catch (cause) {
    throw new ConfigError([{ field: '(file)', message: `not valid YAML: ${(cause as Error).message.split('\n')[0]}` }], absolute);
  }
}

// Reads, interpolates and validates a provider config file (YAML, a superset of JSON).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError, type ConfigProblem } from './config-error.ts';
import { DEV_COOKIE_KEY, DEV_KEY_ENCRYPTION_KEY, DEV_PAIRWISE_SALT, devDefaults } from './dev-defaults.ts';
import { interpolate } from './interpolate.ts';
import { configSchema, type SignInConfig } from './schema.ts';

/** Environment variable that names the config file when `--config` is not given. */
export const CONFIG_ENV = 'SIGNIN_CONFIG';

export function parseConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env, source?: string): SignInConfig {
  const interpolated = interpolate(raw ?? {}, env);
  const result = configSchema.safeParse(interpolated);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const path = issue.path.map(String);
        if (issue.code === 'unrecognized_keys') {
          return { field: [...path, ...issue.keys].join('.'), message: 'unknown key' };
        }
        return { field: path.join('.') || '(root)', message: issue.message };
      }),
      source,
    );
  }
  const config = result.data;
  if (config.production) assertProductionReady(config, source);
  return config;
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
  const file = path ?? env[CONFIG_ENV];
  if (!file) return parseConfig(devDefaults, env, 'development defaults');
  const absolute = resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (cause) {
    throw new ConfigError([{ field: '(file)', message: `cannot read ${absolute}: ${(cause as NodeJS.ErrnoException).code ?? cause}` }]);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (cause) {
    throw new ConfigError([{ field: '(file)', message: `not valid YAML: ${(cause as Error).message.split('\n')[0]}` }], absolute);
  }
  return parseConfig(raw, env, absolute);
}

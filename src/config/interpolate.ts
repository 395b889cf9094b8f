// `${NAME}` in any string of the config file is replaced by the environment variable NAME, so that
// secrets and URLs need not be written in the file. `${NAME:-fallback}` gives a fallback.
import { ConfigError } from './config-error.ts';

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function interpolate(value: unknown, env: NodeJS.ProcessEnv, path: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(PATTERN, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError([{ field: path.join('.') || '(root)', message: `environment variable ${name} is not set` }]);
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => interpolate(item, env, [...path, String(i)]));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, [...path, k])]));
  }
  return value;
}

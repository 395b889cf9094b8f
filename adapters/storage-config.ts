// The storage part of the config file, restated here so that adapters/ imports nothing from src/.
export interface RedisConfig {
  url: string;
  keyPrefix: string;
  commandTimeoutMs: number;
}

export type SignInStorageConfig =
  | { kind: 'embedded'; dataDir: string; redis?: RedisConfig }
  | {
      kind: 'postgres';
      postgres: { url: string; pool: { max: number; connectionTimeoutMs: number; idleTimeoutMs: number; statementTimeoutMs: number } };
      redis?: RedisConfig;
    };

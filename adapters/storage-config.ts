// The storage part of the config file, restated here so that adapters/ imports nothing from src/.
export interface RedisConfig {
  /** One Redis server. Exactly one of `url` and `cluster` is set (the config schema checks it). */
  url?: string;
  /** The seed nodes of a Redis Cluster, `host:port` or `redis://` URLs; the client discovers the rest. */
  cluster?: string[];
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

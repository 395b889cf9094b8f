export { createSignInService, type SignInService, type SignInServiceOptions } from './service.ts';
export { loadConfig, parseConfig, CONFIG_ENV } from './config/load.ts';
export { ConfigError } from './config/config-error.ts';
export type { SignInConfig, SignInConfigInput } from './config/schema.ts';
export { openStorage, type Storage } from '../adapters/storage.ts';
export { migrate } from '../adapters/sql/migrate.ts';

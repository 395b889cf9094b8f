// Development values that make `npm start` work on a fresh clone. They are public, so production
// mode refuses every one of them.
import type { SignInConfigInput } from './schema.ts';

export const DEV_COOKIE_KEY = 'dev-only-cookie-key-change-me-0000000000';
export const DEV_PAIRWISE_SALT = 'dev-only-pairwise-salt-change-me-00000000';
// Set in development too, so `npm start` runs the same encrypted-keys path as production.
export const DEV_KEY_ENCRYPTION_KEY = 'dev-only-key-encryption-key-change-me-00';

// Only what the schema cannot default: the port, the embedded store in ./data and the rest come from
// the schema itself (schema.ts), the one source of defaults.
export const devDefaults: SignInConfigInput = {
  issuer: 'http://localhost:3000',
  secrets: { cookieKeys: [DEV_COOKIE_KEY], pairwiseSalt: DEV_PAIRWISE_SALT, keyEncryptionKey: DEV_KEY_ENCRYPTION_KEY },
};

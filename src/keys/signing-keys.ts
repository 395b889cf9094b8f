// Signing keys: generated once, on first start, and kept (in the database, shared by every instance,
// or in a JWKS file). Regenerating them at each start would invalidate every ID token in circulation.
export { generateSigningKey, type PrivateJwk, type SigningAlgorithm } from './generate.ts';
export { loadKeysFromDatabase } from './database-keys.ts';
export { loadKeysFromFile } from './file-keys.ts';

// Signing keys: generated once, on first start, and kept (in the database, shared by every instance,
// or in a JWKS file); rotated on purpose with `signin keys`, and picked up by running instances.
// Regenerating them at each start would invalidate every ID token in circulation.
export { generateSigningKey, publicPart, type PrivateJwk, type PublicJwk, type SigningAlgorithm } from './generate.ts';
export { loadKeysFromDatabase } from './database-keys.ts';
export { loadKeysFromFile } from './file-keys.ts';
export { engineKeys, KeyScheduleError, scheduleKeys, type KeyState, type ScheduledKey, type SigningKey } from './key-schedule.ts';
export { keySource, loadSigningKeys, type KeySource } from './key-source.ts';
export { watchSigningKeys, type KeyWatch } from './key-watcher.ts';
export { replaceSigningKeys, retireSigningKey, rotateSigningKeys, type Replacement } from './rotation.ts';

// Password hashing: argon2id at OWASP's parameters (19 MiB, 2 passes, 1 lane), on threads of their own
// at the lowest CPU priority (hashing-threads.ts), so that a login burst does not slow token responses.
import { runHashJob } from './hashing-threads.ts';

export { hashingQueueLength } from './hashing-threads.ts';

// algorithm 2 is Argon2id (a const enum in the typings, which isolated modules cannot import).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// NIST SP 800-63B §5.1.1.2: passwords are compared after Unicode normalisation (NFKC), so that "é"
// typed as one character on one keyboard and as e + accent on another is the same password.
const normalised = (password: string): string => password.normalize('NFKC');

export async function hashPassword(password: string): Promise<string> {
  return (await runHashJob({ op: 'hash', password: normalised(password), options: OPTIONS })) as string;
}

/** False for a wrong password, and for a stored value that is no hash this service can read. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  return (await runHashJob({ op: 'verify', stored, password: normalised(password) })) === true;
}

// A fixed hash to verify against when the e-mail is unknown, so that the answer takes as long as for
// a known e-mail and does not reveal which addresses are registered.
let decoy: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword('decoy password that never matches anything');
  await verifyPassword(await decoy, password);
  return false;
}

// Password hashing: argon2id at OWASP's parameters (19 MiB, 2 passes, 1 lane). Hashes run on libuv's
// small thread pool, which the engine's token signing shares, and each keeps a core busy for about
// 20 ms. Bounding hashes in flight to one less than the number of cores leaves a core to the event loop
// and to signing, so that token responses stay fast during a login burst; sign-ins queue instead.
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// algorithm 2 is Argon2id (a const enum in the typings, which isolated modules cannot import).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

const limit = Math.max(1, availableParallelism() - 1);
let inFlight = 0;
const waiting: Array<() => void> = [];

/** Hashes waiting for a slot: the metrics' hashing-queue gauge. */
export const hashingQueueLength = (): number => waiting.length;

async function bounded<T>(job: () => Promise<T>): Promise<T> {
  // A finishing job hands its slot straight to the next waiter, so the bound is never exceeded.
  if (inFlight >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
  else inFlight += 1;
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  }
}

// NIST SP 800-63B §5.1.1.2: passwords are compared after Unicode normalisation (NFKC), so that "é"
// typed as one character on one keyboard and as e + accent on another is the same password.
const normalised = (password: string): string => password.normalize('NFKC');

export function hashPassword(password: string): Promise<string> {
  return bounded(() => hash(normalised(password), OPTIONS));
}

export function verifyPassword(stored: string, password: string): Promise<boolean> {
  return bounded(() => verify(stored, normalised(password)).catch(() => false));
}

// A fixed hash to verify against when the e-mail is unknown, so that the answer takes as long as for
// a known e-mail and does not reveal which addresses are registered.
let decoy: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword('decoy password that never matches anything');
  await verifyPassword(await decoy, password);
  return false;
}

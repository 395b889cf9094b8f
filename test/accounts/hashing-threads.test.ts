// Password hashes run on threads of their own, at the lowest CPU priority (nice 19), so that the event
// loop and token signing come first during a login burst; at most one less than the cores hash at once.
// Read as `top -H` would show it: the process's threads and their nice values, from /proc (Linux).
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/accounts/password.ts';
import { lowestPriorityThreads, threadNiceValues } from './helpers/thread-priorities.ts';

describe('password hashing threads', () => {
  it('hash on threads at nice 19, no more of them than one less than the cores', async () => {
    const before = lowestPriorityThreads();
    const passwords = Array.from({ length: 6 }, (_, i) => `phrase de passe numéro ${i}`);
    const hashes = await Promise.all(passwords.map((password) => hashPassword(password)));
    const lowest = lowestPriorityThreads() - before;
    expect(lowest).toBeGreaterThanOrEqual(1);
    expect(lowest).toBeLessThanOrEqual(Math.max(1, availableParallelism() - 1));
    // The main thread keeps its priority.
    expect(threadNiceValues()[0]).toBe(0);
    expect(await Promise.all(hashes.map((stored, i) => verifyPassword(stored, passwords[i]!)))).toEqual(passwords.map(() => true));
  });

  it('answers false for a stored value that is no hash, and keeps working after it', async () => {
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
    const stored = await hashPassword('encore une phrase');
    expect(await verifyPassword(stored, 'encore une phrase')).toBe(true);
  });
});

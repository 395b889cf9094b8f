// In a process that runs the embedded store, password hashes leave their threads: a worker thread beside
// PGlite's WebAssembly can make V8 abort the whole process (adapters/sql/webassembly-store.ts). The
// threads that hashed before the store opened are gone once it has, and hashing goes on without them.
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../adapters/sql/database.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { hashPassword, verifyPassword } from '../../src/accounts/password.ts';
import { lowestPriorityThreads } from './helpers/thread-priorities.ts';

let db: Database | undefined;
afterAll(() => db?.close());

describe('password hashing beside the embedded store', () => {
  it('stops its threads when the store opens, and still hashes and verifies', async () => {
    const early = await hashPassword('avant le magasin embarqué');
    expect(lowestPriorityThreads()).toBeGreaterThanOrEqual(1);

    db = await openPglite('memory://');
    expect(lowestPriorityThreads()).toBe(0);

    const late = await hashPassword('après le magasin embarqué');
    expect(lowestPriorityThreads()).toBe(0);
    expect(await verifyPassword(early, 'avant le magasin embarqué')).toBe(true);
    expect(await verifyPassword(late, 'après le magasin embarqué')).toBe(true);
    expect(await verifyPassword(late, 'autre chose')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });
});

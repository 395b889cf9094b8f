// The pairwiseIdentifier hook on its own: HMAC-SHA256 of client and account under the salt, so the
// `sub` differs per application, stays the same for one, and reveals neither.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makePairwiseIdentifier } from '../../src/provider/pairwise-identifier.ts';

const salt = 'a-secret-salt-of-the-service-config';
const pairwise = makePairwiseIdentifier(salt);

describe('pairwiseIdentifier', () => {
  it('is the base64url HMAC-SHA256 of client id and account id, NUL-separated', () => {
    const expected = createHmac('sha256', salt).update('app-a\0account-1').digest('base64url');
    expect(pairwise(undefined, 'account-1', { clientId: 'app-a' })).toBe(expected);
  });

  it('differs per application and per account, and is stable for one pair', () => {
    const a = pairwise(undefined, 'account-1', { clientId: 'app-a' });
    expect(pairwise(undefined, 'account-1', { clientId: 'app-b' })).not.toBe(a);
    expect(pairwise(undefined, 'account-2', { clientId: 'app-a' })).not.toBe(a);
    expect(pairwise(undefined, 'account-1', { clientId: 'app-a' })).toBe(a);
    expect(a).not.toContain('account-1');
  });

  it('cannot be confused across the boundary between client id and account id', () => {
    expect(pairwise(undefined, 'b', { clientId: 'a' })).not.toBe(pairwise(undefined, '', { clientId: 'ab' }));
  });

  it('depends on the salt: another service gives other identifiers', () => {
    const other = makePairwiseIdentifier('another-salt');
    expect(other(undefined, 'account-1', { clientId: 'app-a' })).not.toBe(pairwise(undefined, 'account-1', { clientId: 'app-a' }));
  });

  it('stays the HMAC of its pair for every pair, past the number of pairs it remembers', () => {
    const fresh = makePairwiseIdentifier(salt);
    const hmac = (client: string, account: string) => createHmac('sha256', salt).update(`${client}\0${account}`).digest('base64url');
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 12_000; i += 1) {
        const clientId = `app-${i % 7}`;
        const accountId = `account-${i}`;
        if (i % 997 === 0 || i > 11_990) expect(fresh(undefined, accountId, { clientId })).toBe(hmac(clientId, accountId));
        else fresh(undefined, accountId, { clientId });
      }
    }
  });
});

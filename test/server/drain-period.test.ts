// How long the server drains on SIGTERM when the config does not say: long enough for a load balancer
// in production, not at all on a laptop (Ctrl-C stops at once). What the file says always wins.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { drainSecondsOf } from '../../src/server.ts';

const base = {
  issuer: 'https://id.example.org',
  secrets: { cookieKeys: ['c'.repeat(40)], pairwiseSalt: 's'.repeat(40), keyEncryptionKey: 'k'.repeat(40) },
  mail: { smtp: { host: 'smtp.example.org' } },
};

describe('the drain period', () => {
  it('is 10 s in production and 0 in development unless the config sets it', () => {
    expect(drainSecondsOf(parseConfig({ ...base, production: true }, {}))).toBe(10);
    expect(drainSecondsOf(parseConfig(base, {}))).toBe(0);
    expect(drainSecondsOf(parseConfig({ ...base, production: true, shutdown: { drainSeconds: 0 } }, {}))).toBe(0);
    expect(drainSecondsOf(parseConfig({ ...base, shutdown: { drainSeconds: 30 } }, {}))).toBe(30);
  });

  it('is checked like every other setting', () => {
    expect(() => parseConfig({ ...base, shutdown: { drainSeconds: -1 } }, {})).toThrow(/shutdown.drainSeconds/);
    expect(() => parseConfig({ ...base, shutdown: { drainSecond: 5 } }, {})).toThrow(/shutdown.drainSecond: unknown key/);
  });
});

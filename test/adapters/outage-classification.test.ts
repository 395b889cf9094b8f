// Which driver errors are outages (a 503 the client may retry) and which are bugs (a 500): the replies and
// SQLSTATEs a failover, a full disk or a read-only server produce are outages; a wrong query stays a bug.
import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { isPostgresOutage, isRedisOutage } from '../../adapters/unavailable.ts';

const pgError = (code: string, message = 'error') => Object.assign(new Error(message), { code });

describe('Redis errors', () => {
  it('are outages when the cluster or the server cannot serve', () => {
    for (const reply of [
      'MOVED 3999 127.0.0.1:7002',
      'ASK 3999 127.0.0.1:7002',
      'CLUSTERDOWN The cluster is down',
      'READONLY You cannot write against a read only replica.',
      'LOADING Redis is loading the dataset in memory',
      'TRYAGAIN Multiple keys request during rehashing of slot',
      'MASTERDOWN Link with MASTER is down',
    ]) {
      expect(isRedisOutage(new ReplyError(reply)), reply).toBe(true);
    }
    expect(isRedisOutage(new Error('Connection is closed.'))).toBe(true);
  });

  it('are bugs when Redis answered a wrong command', () => {
    expect(isRedisOutage(new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
    expect(isRedisOutage(new ReplyError('ERR unknown command'))).toBe(false);
    expect(isRedisOutage(new TypeError('x is not a function'))).toBe(false);
  });
});

describe('Postgres and PGlite errors', () => {
  it('are outages for a full disk, a read-only server, a lost connection', () => {
    expect(isPostgresOutage(pgError('53100', 'could not extend file "base/1/2": No space left on device'))).toBe(true);
    expect(isPostgresOutage(pgError('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(true);
    expect(isPostgresOutage(pgError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isPostgresOutage(pgError('ENOSPC', 'no space left on device'))).toBe(true);
    expect(isPostgresOutage(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('are bugs or conflicts for a wrong query', () => {
    expect(isPostgresOutage(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isPostgresOutage(pgError('42601', 'syntax error'))).toBe(false);
    expect(isPostgresOutage(pgError('25P02', 'current transaction is aborted'))).toBe(false);
  });
});

// Which driver errors are outages (a 503 the client may retry) and which are bugs (a 500): the replies and
// SQLSTATEs a failover, a full disk or a read-only server produce are outages; a wrong query stays a bug.
import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { isEmbeddedOutage, isPostgresOutage, isRedisOutage, StorageUnavailableError } from '../../adapters/unavailable.ts';

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
      'MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk.',
      "OOM command not allowed when used memory > 'maxmemory'.",
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

describe('embedded store (PGlite) errors', () => {
  // What PGlite's file system layer (Emscripten's) throws: not an Error, an errno of its own numbering.
  const fsError = (errno: number) => Object.assign(Object.create(null) as object, { name: 'ErrnoError', errno });

  it('are outages for a full disk, whether Postgres or the file system says it', () => {
    expect(isEmbeddedOutage(pgError('53100', 'could not extend file "base/5/16385_fsm": No space left on device'))).toBe(true);
    expect(isEmbeddedOutage(fsError(51))).toBe(true); // ENOSPC
    expect(isEmbeddedOutage(fsError(19))).toBe(true); // EDQUOT
    expect(isEmbeddedOutage(fsError(69))).toBe(true); // EROFS
    expect(isEmbeddedOutage(pgError('ENOSPC', 'ENOSPC: no space left on device, write'))).toBe(true);
    expect(isEmbeddedOutage(pgError('EROFS', 'EROFS: read-only file system, open'))).toBe(true);
  });

  it('are bugs otherwise: there is no network to lose', () => {
    expect(isEmbeddedOutage(pgError('42601', 'syntax error'))).toBe(false);
    expect(isEmbeddedOutage(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isEmbeddedOutage(new Error('PGlite is closed'))).toBe(false);
    expect(isEmbeddedOutage(fsError(44))).toBe(false); // ENOENT
  });
});

describe('a store that refuses writes', () => {
  it('is told apart from one that cannot be reached: a ping does not show it', () => {
    const refuses = (backend: 'postgres' | 'redis' | 'embedded', cause: unknown) =>
      new StorageUnavailableError(backend, cause).refusesWrites;
    expect(refuses('embedded', pgError('53100', 'could not extend file'))).toBe(true);
    expect(refuses('postgres', pgError('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(true);
    expect(refuses('redis', new ReplyError('MISCONF Redis is configured to save RDB snapshots'))).toBe(true);
    expect(refuses('redis', new ReplyError('READONLY You cannot write against a read only replica.'))).toBe(true);
    expect(refuses('postgres', new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(refuses('postgres', pgError('57P01', 'terminating connection due to administrator command'))).toBe(false);
    expect(refuses('redis', new ReplyError('LOADING Redis is loading the dataset in memory'))).toBe(false);
  });

  it('names the file system error in its message, which says nothing else', () => {
    const error = new StorageUnavailableError('embedded', Object.assign(Object.create(null) as object, { name: 'ErrnoError', errno: 51 }));
    expect(error.message).toBe('embedded is unavailable: file system error 51');
  });
});

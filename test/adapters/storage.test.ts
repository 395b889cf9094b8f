// openStorage sends the hot models to Redis when configured, everything else to SQL.
import { describe, expect, it } from 'vitest';
import { HOT_MODELS, openStorage } from '../../adapters/storage.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { storageKey } from '../../adapters/token-key.ts';
import { freshRedis } from '../support/databases.ts';
import { tokenId } from './contract.ts';

const NO_GRACE = { refreshTokenReuseGrace: 0 };

describe('openStorage', () => {
  it('is SQL only without a redis section', async () => {
    const storage = await openStorage({ kind: 'embedded', dataDir: 'memory://' });
    try {
      await migrate(storage.db);
      expect(storage.redis).toBeUndefined();
      const id = tokenId();
      await storage.adapterFactory(NO_GRACE)('AccessToken').upsert(id, { kind: 'AccessToken' }, 60);
      const res = await storage.db.query('SELECT 1 FROM oidc_models WHERE model = $1', ['AccessToken']);
      expect(res.rows).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });

  it('puts the hot models in Redis and the rest in SQL, and closes both', async () => {
    const fresh = await freshRedis();
    const storage = await openStorage({ kind: 'embedded', dataDir: 'memory://', redis: fresh.config });
    try {
      await migrate(storage.db);
      const adapters = storage.adapterFactory(NO_GRACE);
      // Access tokens of both kinds, a user's and a server application's, are among them.
      expect(HOT_MODELS).toEqual(expect.arrayContaining(['AccessToken', 'ClientCredentials', 'AuthorizationCode', 'Session']));
      for (const model of [...HOT_MODELS, 'RefreshToken', 'Grant']) {
        await adapters(model).upsert(`${model}-id`, { kind: model }, 60);
      }
      const sqlModels = (await storage.db.query<{ model: string }>('SELECT model FROM oidc_models ORDER BY model')).rows.map(
        (r) => r.model,
      );
      expect(sqlModels).toEqual(['Grant', 'RefreshToken']);
      for (const model of HOT_MODELS) {
        expect(await fresh.redis.exists(`${fresh.keyPrefix}${model}:${storageKey(`${model}-id`)}`), model).toBe(1);
        expect(await adapters(model).find(`${model}-id`), model).toMatchObject({ kind: model });
      }
    } finally {
      await storage.close();
      await fresh.cleanup();
    }
    expect(storage.redis?.status).toBe('end');
  });

  it('closes the database when Redis cannot be reached', async () => {
    await expect(
      openStorage({
        kind: 'embedded',
        dataDir: 'memory://',
        redis: { url: 'redis://127.0.0.1:1', keyPrefix: 'x:', commandTimeoutMs: 200 },
      }),
    ).rejects.toThrow(/Redis is not reachable/);
  });
});

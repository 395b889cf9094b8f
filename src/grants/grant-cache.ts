// The engine reads the Grant on every code exchange, refresh and userinfo call: on Postgres + Redis
// that was the one Postgres read of a userinfo call. Grants are read far more often than they change,
// so they are kept in memory here, briefly.
//
// Why a cached grant never lets a revoked one through: every revocation (the engine's, src/grants/
// revoke.ts, a reuse detection) deletes the grant's codes and tokens too, in the same call and before
// it returns, and no token call succeeds without its own code or token found in the store (a refresh
// token this instance remembers is looked for there by its rotation's commit: src/provider/
// tokens/issued-refresh-tokens.ts). What the
// cache may hold a moment too long is a grant's content after a change (a consent given again), so a
// change made here drops the entry at once, a change made elsewhere (another instance, the CLI) arrives
// through `invalidate`, which the service calls on the Postgres NOTIFY of migration 011, and `maxAgeMs`
// bounds what a lost notice could leave.
import type { AdapterFactory, ModelAdapter, Payload } from '../../adapters/adapter.ts';
import { storageKey } from '../../adapters/token-key.ts';

export interface GrantCache {
  adapters: AdapterFactory;
  /** Drops the grant stored under this key (`id_hash`, as the notice carries it), or every grant. */
  invalidate(idHash?: string): void;
}

interface Entry {
  at: number;
  /** Kept as text: the engine changes the grant it is given, which must not change the cached one. */
  json: string;
  /** Epoch seconds after which the store would no longer return it. */
  exp?: number;
}

export function withCachedGrants(adapters: AdapterFactory, { maxAgeMs = 10_000, maxEntries = 50_000 } = {}): GrantCache {
  const cache = new Map<string, Entry>();
  // Bumped on every invalidation: a read that started before one must not store what it read.
  let generation = 0;
  const invalidate = (idHash?: string) => {
    generation += 1;
    if (idHash === undefined) cache.clear();
    else cache.delete(idHash);
  };
  let grantAdapter: ModelAdapter | undefined;

  const cached = (inner: ModelAdapter): ModelAdapter => ({
    ...inner,
    async find(id) {
      const key = storageKey(id);
      const hit = cache.get(key);
      // The copy's age on a clock that cannot go back (a wall clock set back would keep it past maxAgeMs);
      // the grant's own expiry is wall-clock time, as the engine writes it.
      const at = performance.now();
      if (hit && at - hit.at < maxAgeMs && (hit.exp === undefined || hit.exp * 1000 > Date.now())) return JSON.parse(hit.json) as Payload;
      const started = generation;
      const payload = await inner.find(id);
      // A grant not found is not remembered: it may be being created right now.
      if (payload && started === generation) {
        if (cache.size >= maxEntries) cache.clear();
        cache.set(key, { at, json: JSON.stringify(payload), exp: typeof payload.exp === 'number' ? payload.exp : undefined });
      }
      return payload;
    },
    async upsert(id, payload, expiresIn) {
      invalidate(storageKey(id));
      await inner.upsert(id, payload, expiresIn);
      invalidate(storageKey(id));
    },
    async destroy(id) {
      invalidate(storageKey(id));
      await inner.destroy(id);
      invalidate(storageKey(id));
    },
    async revokeByGrantId(grantId) {
      invalidate(storageKey(grantId));
      await inner.revokeByGrantId(grantId);
      invalidate(storageKey(grantId));
    },
  });

  return {
    adapters: (model) => {
      if (model !== 'Grant') return adapters(model);
      grantAdapter ??= cached(adapters(model));
      return grantAdapter;
    },
    invalidate,
  };
}

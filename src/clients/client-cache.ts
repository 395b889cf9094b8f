// Registered applications as the request paths read them: from memory, for a few seconds at most. The
// engine looks its client up on every request, and a sign-in's pages (the authorization request's
// redirect check, login, consent) read the application's name, logo and trust several times more. A
// change made through the registry drops the entry at once; a change made elsewhere (another instance,
// the CLI) arrives through `invalidateCachedClients`, which the service calls on a Postgres NOTIFY, and
// the age limit bounds staleness where no such signal exists (or one was missed).
import type { ClientRegistry, RegisteredClient } from './registry.ts';

const MAX_AGE_MS = 5000;
const MAX_ENTRIES = 10_000;

export interface ClientCache {
  /** The application, as read at most a few seconds ago; undefined when none is registered under the id. */
  get(clientId: string): Promise<RegisteredClient | undefined>;
}

interface Cache extends ClientCache {
  invalidate(clientId?: string): void;
}

const caches = new WeakMap<Pick<ClientRegistry, 'get' | 'onChange'>, Cache>();

/** The cache of `registry`'s applications: one per registry, shared by every reader. */
export function clientCache(registry: Pick<ClientRegistry, 'get' | 'onChange'>): ClientCache {
  let cache = caches.get(registry);
  if (!cache) {
    cache = newCache(registry);
    caches.set(registry, cache);
  }
  return cache;
}

/** Drops `clientId` (every application when undefined) from the cache of `registry`. */
export function invalidateCachedClients(registry: Pick<ClientRegistry, 'get' | 'onChange'>, clientId?: string): void {
  caches.get(registry)?.invalidate(clientId);
}

function newCache(registry: Pick<ClientRegistry, 'get' | 'onChange'>): Cache {
  const entries = new Map<string, { at: number; client: RegisteredClient | undefined }>();
  // Bumped on every invalidation: a lookup that started before one must not store what it read.
  let generation = 0;
  const invalidate = (clientId?: string) => {
    generation += 1;
    if (clientId === undefined) entries.clear();
    else entries.delete(clientId);
  };
  registry.onChange((clientId) => invalidate(clientId));
  return {
    invalidate,
    async get(clientId) {
      const hit = entries.get(clientId);
      // Ages on a clock that cannot go back: a wall clock set back would keep a copy past MAX_AGE_MS.
      if (hit && performance.now() - hit.at < MAX_AGE_MS) return hit.client;
      const started = generation;
      const client = await registry.get(clientId);
      if (started === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(clientId, { at: performance.now(), client });
      }
      return client;
    },
  };
}

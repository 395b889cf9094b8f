// Registered applications as the request paths read them: from memory, for a few seconds at most. The
// engine looks its client up on every request, and a sign-in's pages (the authorization request's
// redirect check, login, consent) read the application's name, logo and trust several times more. A
// change made through the registry drops the entry at once; a change made elsewhere (another instance,
// the CLI) arrives through `invalidateCachedClients`, which the service calls on a Postgres NOTIFY, and
// the age limit bounds staleness where no such signal exists (or one was missed).
//
// An id that no application has is remembered as unknown for the same few seconds, apart from the
// applications and in a smaller table that drops its oldest entry when full: a flood of made-up ids
// neither grows memory nor pushes the registered applications out. (A client_id is drawn at random when
// the application is created, so nobody asks for one before it exists; a creation in this process drops
// the entry anyway.) The engine's client authentication reads through `lookup`, which does not trust
// that memory: see src/provider/client-adapter.ts for why every failed authentication costs one read.
import type { ClientRegistry, RegisteredClient } from './registry.ts';

const MAX_AGE_MS = 5000;
const MAX_ENTRIES = 10_000;
const MAX_UNKNOWN = 1000;

export interface ClientLookup {
  client: RegisteredClient | undefined;
  /** The registry was read for this lookup (not answered from memory). */
  read: boolean;
}

export interface ClientCache {
  /** The application, as read at most a few seconds ago; undefined when none is registered under the id. */
  get(clientId: string): Promise<RegisteredClient | undefined>;
  /** The same for an application, saying whether the registry was read; an id remembered as unknown is read again. */
  lookup(clientId: string): Promise<ClientLookup>;
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
  const known = new Map<string, { at: number; client: RegisteredClient }>();
  const unknown = new Map<string, number>();
  // Bumped on every invalidation: a lookup that started before one must not store what it read.
  let generation = 0;
  const invalidate = (clientId?: string) => {
    generation += 1;
    if (clientId === undefined) {
      known.clear();
      unknown.clear();
    } else {
      known.delete(clientId);
      unknown.delete(clientId);
    }
  };
  registry.onChange((clientId) => invalidate(clientId));
  // Ages on a clock that cannot go back: a wall clock set back would keep a copy past MAX_AGE_MS.
  const young = (at: number | undefined) => at !== undefined && performance.now() - at < MAX_AGE_MS;

  const read = async (clientId: string): Promise<RegisteredClient | undefined> => {
    const started = generation;
    const client = await registry.get(clientId);
    if (started !== generation) return client;
    known.delete(clientId);
    unknown.delete(clientId); // set again below, as the newest: the table drops its oldest first
    if (client) {
      if (known.size >= MAX_ENTRIES) known.clear();
      known.set(clientId, { at: performance.now(), client });
    } else {
      if (unknown.size >= MAX_UNKNOWN) unknown.delete(unknown.keys().next().value!);
      unknown.set(clientId, performance.now());
    }
    return client;
  };

  const lookup = async (clientId: string): Promise<ClientLookup> => {
    const hit = known.get(clientId);
    if (hit && young(hit.at)) return { client: hit.client, read: false };
    return { client: await read(clientId), read: true };
  };

  return {
    invalidate,
    lookup,
    async get(clientId) {
      if (young(unknown.get(clientId))) return undefined;
      return (await lookup(clientId)).client;
    },
  };
}

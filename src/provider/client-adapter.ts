// The engine looks its client up on every request. Registered applications come from our registry,
// cached briefly in memory. A change made through this registry invalidates at once; a change made
// elsewhere (another instance, the CLI) arrives through `invalidateCachedClients`, which the service
// calls on a Postgres NOTIFY; `maxAgeMs` bounds staleness where no such signal exists (or was missed).
import type { ModelAdapter, Payload } from '../../adapters/adapter.ts';
import type { ClientRegistry } from '../clients/registry.ts';
import { toClientMetadata } from './client-metadata.ts';

type Invalidate = (clientId: string | undefined) => void;
const caches = new WeakMap<ClientRegistry, Set<Invalidate>>();

/** Drops `clientId` (every client when undefined) from the caches built on `registry`. */
export function invalidateCachedClients(registry: ClientRegistry, clientId?: string): void {
  for (const invalidate of caches.get(registry) ?? []) invalidate(clientId);
}

export function clientAdapter(registry: ClientRegistry, maxAgeMs = 5000): ModelAdapter {
  const cache = new Map<string, { at: number; metadata: Payload | undefined }>();
  // Bumped on every invalidation: a lookup that started before one must not store what it read.
  let generation = 0;
  const invalidate: Invalidate = (clientId) => {
    generation += 1;
    if (clientId === undefined) cache.clear();
    else cache.delete(clientId);
  };
  registry.onChange((clientId) => invalidate(clientId));
  if (!caches.has(registry)) caches.set(registry, new Set());
  caches.get(registry)!.add(invalidate);

  const readOnly = async (): Promise<never> => {
    throw new Error('clients are managed through the client registry');
  };
  return {
    async find(id) {
      const hit = cache.get(id);
      if (hit && Date.now() - hit.at < maxAgeMs) return hit.metadata;
      const started = generation;
      const client = await registry.get(id);
      const metadata = client ? toClientMetadata(client) : undefined;
      if (started === generation) {
        if (cache.size > 10_000) cache.clear();
        cache.set(id, { at: Date.now(), metadata });
      }
      return metadata;
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: async () => {},
  };
}

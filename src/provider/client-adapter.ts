// The engine looks its client up on every request. Registered applications come from our registry,
// cached briefly in memory: a change made here invalidates at once, a change made by another instance
// is seen within `maxAgeMs`.
import type { ModelAdapter, Payload } from '../../adapters/adapter.ts';
import type { ClientRegistry } from '../clients/registry.ts';
import { toClientMetadata } from './client-metadata.ts';

export function clientAdapter(registry: ClientRegistry, maxAgeMs = 5000): ModelAdapter {
  const cache = new Map<string, { at: number; metadata: Payload | undefined }>();
  registry.onChange((clientId) => {
    cache.delete(clientId);
  });
  const readOnly = async (): Promise<never> => {
    throw new Error('clients are managed through the client registry');
  };
  return {
    async find(id) {
      const hit = cache.get(id);
      if (hit && Date.now() - hit.at < maxAgeMs) return hit.metadata;
      const client = await registry.get(id);
      const metadata = client ? (toClientMetadata(client) as Payload) : undefined;
      if (cache.size > 10_000) cache.clear();
      cache.set(id, { at: Date.now(), metadata });
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

// The engine's client store: registered applications from the registry, through the shared cache of
// src/clients/client-cache.ts (the engine looks its client up on every request).
import type { ModelAdapter, Payload } from '../../adapters/adapter.ts';
import { clientCache } from '../clients/client-cache.ts';
import type { ClientRegistry, RegisteredClient } from '../clients/registry.ts';
import { toClientMetadata } from './client-metadata.ts';

export function clientAdapter(registry: ClientRegistry): ModelAdapter {
  const cache = clientCache(registry);
  // The metadata of a cached application is built once, not on every request.
  const metadata = new WeakMap<RegisteredClient, Payload>();
  const readOnly = async (): Promise<never> => {
    throw new Error('clients are managed through the client registry');
  };
  return {
    async find(id) {
      const client = await cache.get(id);
      if (!client) return undefined;
      let found = metadata.get(client);
      if (!found) {
        found = toClientMetadata(client);
        metadata.set(client, found);
      }
      return found;
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: async () => {},
  };
}

// The engine's client store: registered applications from the registry, through the shared cache of
// src/clients/client-cache.ts (the engine looks its client up on every request).
//
// A failed client authentication takes the same time whether the client_id is registered or not, so
// that the token endpoint (and revocation, introspection, PAR) does not tell which ids exist. A registered
// application is usually answered from memory, an unknown id never is (it must be looked for): so every
// failed authentication costs exactly one read of the registry that finds no row. An unknown id is read
// (not answered from the memory of unknown ids); for a registered application whose secret did not match,
// unless this request read it already, the registry is asked whether its secret changed since the copy in
// memory was read (one that did is compared too: a secret rotated elsewhere works at once). Both also ask
// the client-authentication limits once (the gate, src/edge/client-auth-limit.ts): a registered client
// before its secret is compared (src/provider/engine/client-secrets.ts), an unknown one when it is found
// missing here.
import type { ModelAdapter, Payload } from '../../adapters/adapter.ts';
import { clientCache, invalidateCachedClients } from '../clients/client-cache.ts';
import type { ClientRegistry, RegisteredClient } from '../clients/registry.ts';
import { livePreviousSecret } from '../clients/secret-overlap.ts';
import { toClientMetadata } from './client-metadata.ts';
import { engineRequest, type ClientAuthGate } from './engine.ts';

export interface ClientAdapter extends ModelAdapter {
  /**
   * The registry's secret hash of `clientId` when it is no longer `held`; undefined when it still is, when
   * the application is gone, or when the request being handled read the application already.
   */
  changedSecretHash(clientId: string, held: string): Promise<string | undefined>;
  /** The hash of the secret the last rotation replaced while its overlap lasts, from the copy in memory. */
  previousSecretHash(clientId: string): Promise<string | undefined>;
}

export function clientAdapter(registry: ClientRegistry, gate?: ClientAuthGate): ClientAdapter {
  const cache = clientCache(registry);
  // The metadata of a cached application is built once, not on every request.
  const metadata = new WeakMap<RegisteredClient, Payload>();
  // What each engine request has read from the registry, by client_id: the engine looks a client up
  // more than once per request (engine/client-instances.ts), and one read must serve them all.
  const readsOf = new WeakMap<object, Map<string, RegisteredClient | undefined>>();
  const requestReads = () => {
    const request = engineRequest();
    if (!request) return undefined;
    let reads = readsOf.get(request);
    if (!reads) readsOf.set(request, (reads = new Map()));
    return reads;
  };

  const find = async (clientId: string): Promise<RegisteredClient | undefined> => {
    const reads = requestReads();
    if (reads?.has(clientId)) return reads.get(clientId);
    const { client, read } = await cache.lookup(clientId);
    if (read) {
      reads?.set(clientId, client);
      // Outside a client authentication the gate answers at once, and reads nothing.
      if (!client && gate) await gate(clientId);
    }
    return client;
  };

  const readOnly = async (): Promise<never> => {
    throw new Error('clients are managed through the client registry');
  };
  return {
    async find(id) {
      const client = await find(id);
      if (!client) return undefined;
      let found = metadata.get(client);
      if (!found) {
        found = toClientMetadata(client);
        metadata.set(client, found);
      }
      return found;
    },
    async changedSecretHash(clientId, held) {
      if (requestReads()?.has(clientId)) return undefined; // read by this request: nothing newer to find
      const changed = await registry.secretHashOtherThan(clientId, held);
      // The copy in memory is out of date (a change whose notice did not arrive): the next lookup reads it.
      if (changed !== undefined) invalidateCachedClients(registry, clientId);
      return changed;
    },
    async previousSecretHash(clientId) {
      const client = await find(clientId);
      return livePreviousSecret(client?.previousSecret)?.hash;
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: async () => {},
  };
}

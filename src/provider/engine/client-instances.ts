// The engine looks an application up on every request (client authentication, an access token's
// client), and for a client from an adapter it builds a Client once per distinct metadata, found again
// by a SHA-256 of `JSON.stringify(metadata)`: a serialisation and a hash of a kilobyte on every call.
// Our adapter already hands out one metadata object per cached application (client-adapter.ts), and a
// new one as soon as the application changes, so the Client the engine built is remembered against that
// object: same object, same Client; a change in the registry, a new object, the engine builds again.
//
// Relies on oidc-provider 9.13:
// - lib/models/client.js: `static async find(id)`, the only lookup (every caller goes through
//   `provider.Client.find`), which reads `this.adapter.find(id)` and returns the cached or a new Client;
//   clients from the configuration (`staticClients`) are not used by the service.
import type Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import type { Payload } from '../../../adapters/adapter.ts';

/** `metadataOf` must be the engine's Client adapter lookup, answering one object per application version. */
export function rememberClientInstances(provider: Provider, metadataOf: (clientId: string) => Promise<Payload | undefined>): void {
  const engineFind = provider.Client.find.bind(provider.Client);
  const built = new WeakMap<Payload, Client>();
  provider.Client.find = async function findRemembered(id: string) {
    const metadata = typeof id === 'string' && id !== '' ? await metadataOf(id) : undefined;
    if (!metadata) return engineFind(id);
    let client = built.get(metadata);
    if (!client) {
      client = await engineFind(id);
      // The engine read the adapter again: what it built is for the metadata it read then, which is
      // this object unless the application changed in between (then the next lookup builds again).
      if (client && (await metadataOf(id)) === metadata) built.set(metadata, client);
    }
    return client;
  };
}

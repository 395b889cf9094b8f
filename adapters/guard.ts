// Wraps a model adapter so that an outage of its backend surfaces as a StorageUnavailableError. The SQL
// adapter needs no wrapper (openPostgres classifies at the query); the Redis adapter calls ioredis in
// many places, so its methods are wrapped here as a whole.
import { errors } from 'oidc-provider';
import type { ModelAdapter } from './adapter.ts';
import { rethrowClassified, type StorageBackend } from './unavailable.ts';

export function guardAdapter(backend: StorageBackend, adapter: ModelAdapter): ModelAdapter {
  const guarded = {} as Record<keyof ModelAdapter, unknown>;
  for (const name of Object.keys(adapter) as Array<keyof ModelAdapter>) {
    const method = adapter[name] as (...args: unknown[]) => Promise<unknown>;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (error) {
        // The protocol's own answers (a code already used) are not outages.
        if (error instanceof errors.OIDCProviderError) throw error;
        rethrowClassified(backend, error);
      }
    };
  }
  return guarded as ModelAdapter;
}

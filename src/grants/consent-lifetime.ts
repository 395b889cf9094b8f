// A consent lives exactly as long as its grant. The grant is the engine's record, saved and destroyed by
// the engine (a sign-in or refresh extends it, a code or refresh-token reuse revokes it) as well as by
// us; wrapping its storage is the one place that sees every one of those, whoever does them.
import type { AdapterFactory } from '../../adapters/adapter.ts';
import type { ConsentStore } from '../consents/store.ts';

export function withConsentsFollowingGrants(adapters: AdapterFactory, consents: Pick<ConsentStore, 'follow' | 'forget'>): AdapterFactory {
  return (model) => {
    const adapter = adapters(model);
    if (model !== 'Grant') return adapter;
    return {
      ...adapter,
      async upsert(id, payload, expiresIn) {
        await adapter.upsert(id, payload, expiresIn);
        if (expiresIn !== undefined) await consents.follow(id, expiresIn);
      },
      async destroy(id) {
        await adapter.destroy(id);
        // A revoked grant leaves no consent behind: the application is no longer listed as having
        // access, and the user is asked again next time.
        await consents.forget({ grantId: id });
      },
    };
  };
}

// The engine's sessions as they are stored: every signed-in session is recorded for its account before
// it is saved (so "sign out everywhere" finds every one: a sign-in whose record cannot be written fails,
// and nothing untracked is left), and a session past its absolute lifetime is treated as absent,
// whatever its activity, even where the store still holds it.
//
// Relies on oidc-provider 9.13, lib/models/session.js: the stored payload of a Session holds `uid`
// (stable for the session's life), `accountId` and `loginTs` (epoch seconds, set by `loginAccount`)
// once someone signed in, and `exp` (set by lib/models/base_model.js `save` before the adapter's upsert).
import type { AdapterFactory, Payload } from '../../../adapters/adapter.ts';

export interface SessionRecords {
  record(uid: string, accountId: string, expiresAtEpoch: number): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);

export function withSessionRecords(adapters: AdapterFactory, records: SessionRecords, absoluteSeconds: number): AdapterFactory {
  const current = (payload: Payload | undefined): Payload | undefined => {
    const loginTs = payload?.loginTs;
    return typeof loginTs === 'number' && loginTs + absoluteSeconds <= now() ? undefined : payload;
  };
  return (model) => {
    const adapter = adapters(model);
    if (model !== 'Session') return adapter;
    return {
      ...adapter,
      async upsert(id, payload, expiresIn) {
        const { uid, accountId, exp } = payload;
        // Recorded first: if the record fails, the session is not saved and the sign-in fails (503).
        if (typeof uid === 'string' && typeof accountId === 'string' && typeof exp === 'number') await records.record(uid, accountId, exp);
        await adapter.upsert(id, payload, expiresIn);
      },
      find: async (id) => current(await adapter.find(id)),
      findByUid: async (uid) => current(await adapter.findByUid(uid)),
    };
  };
}

/** Seconds a session may still live: its idle lifetime, never past `absoluteSeconds` after sign-in. */
export function sessionTtl(idleSeconds: number, absoluteSeconds: number) {
  return function sessionTtlFor(_ctx: unknown, session: { loginTs?: number | undefined }): number {
    if (typeof session.loginTs !== 'number') return idleSeconds;
    return Math.max(1, Math.min(idleSeconds, session.loginTs + absoluteSeconds - now()));
  };
}

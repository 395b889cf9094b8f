// "Sign out everywhere": every engine session of an account, wherever the engine stores them, found
// through the records kept for each signed-in session (src/accounts/sessions.ts).
import type Provider from 'oidc-provider';
import type { AccountSessions, AccountSessionStore } from '../accounts/sessions.ts';
import { findSessionByUid } from './engine.ts';

export function accountSessions(provider: Provider, store: AccountSessionStore): AccountSessions {
  // A session ended by its user (logout) takes its record along; one that fails to is harmless (the
  // record points at nothing) and goes with the sweep.
  provider.on('session.destroyed', (session: { uid?: string }) => {
    if (session.uid) void store.forget(session.uid).catch(() => {});
  });
  return {
    async endAll(accountId) {
      let ended = 0;
      for (const uid of await store.uidsOf(accountId)) {
        const session = await findSessionByUid(provider, uid);
        // The same browser session may since have been signed in to another account: not this one's.
        if (session?.accountId === accountId) {
          await session.destroy();
          ended += 1;
        }
      }
      await store.forgetAccount(accountId);
      return ended;
    },
  };
}

// The engine's sessions of an account, wherever the engine stores them, found through the records kept
// for each signed-in session (src/accounts/sessions.ts): "sign out everywhere", ending one device from
// the account page's list, and the list itself. Each request the engine serves with a signed-in
// session is noted here (its device and last use, at most once per few minutes), and a sign-in from a
// device the account has never used can be told to its owner by e-mail (notices.newDeviceSignIn).
//
// A session is not a grant: ending sessions signs browsers out of the service, while the applications
// keep the refresh tokens they were given (the engine's `expiresWithSession` is off). Only "sign out
// everywhere", a password change or reset, revoking an application or deleting the account end those.
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { deviceKey, deviceName } from '../accounts/device-name.ts';
import { USE_WINDOW_SECONDS, type AccountSessions, type AccountSessionStore, type SessionEntry } from '../accounts/sessions.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { Locale } from '../i18n/index.ts';
import { logMailFailure, type AccountMail } from '../mail/account-mail.ts';
import { localeFor } from '../pages/language.ts';
import { findSessionByUid } from './engine.ts';

/** What the new-device notice needs; without it (or with the notice off), no e-mail is sent. */
export interface NewDeviceNotices {
  config: Pick<SignInConfig, 'notices' | 'languages'>;
  accounts: Pick<AccountStore, 'findById'>;
  mail: Pick<AccountMail, 'sendNewDeviceSignIn'>;
}

/** The sessions this instance noted lately, so that most requests write nothing and ask nothing. */
const NOTED_MAX = 10_000;

interface EngineContext {
  oidc?: { session?: { uid?: string; accountId?: string; destroyed?: boolean } };
}

export function accountSessions(provider: Provider, store: AccountSessionStore, notices?: NewDeviceNotices): AccountSessions {
  // A session ended by its user (logout) takes its record along; one that fails to is harmless (the
  // record points at nothing) and goes with the sweep.
  provider.on('session.destroyed', (session: { uid?: string }) => {
    if (session.uid) {
      noted.delete(session.uid);
      void store.forget(session.uid).catch(() => {});
    }
  });
  const noted = new Map<string, { device: string; at: number }>();

  const sessions: AccountSessions = {
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

    async endOne(accountId, uid) {
      if (!(await store.uidsOf(accountId)).includes(uid)) return false;
      const session = await findSessionByUid(provider, uid);
      const ours = session?.accountId === accountId;
      if (session && ours) await session.destroy();
      await store.forget(uid);
      return ours;
    },

    async list(accountId) {
      // A record may outlive its session by a few minutes (or a failed clean-up): only live ones are listed.
      const live: SessionEntry[] = [];
      for (const entry of await store.entries(accountId)) {
        const session = await findSessionByUid(provider, entry.uid);
        if (session?.accountId === accountId) live.push(entry);
      }
      return live;
    },

    async seen(session, request) {
      const device = deviceName(request.userAgent);
      const key = deviceKey(device);
      const now = Date.now();
      const last = noted.get(session.uid);
      if (last && last.device === key && now - last.at < USE_WINDOW_SECONDS * 1000) return;
      const outcome = await store.seen(session.uid, session.accountId, device);
      if (noted.size >= NOTED_MAX) noted.delete(noted.keys().next().value!);
      noted.delete(session.uid);
      noted.set(session.uid, { device: key, at: now });
      if (outcome.signedIn && outcome.newDevice && notices?.config.notices.newDeviceSignIn) {
        const account = await notices.accounts.findById(session.accountId);
        // Not awaited: the sign-in's answer does not wait for the mail server.
        if (account) void notices.mail.sendNewDeviceSignIn(account, device, new Date(now), request.locale).catch(logMailFailure);
      }
    },
  };

  // Every request the engine serves with a signed-in session (an application's sign-in, the session
  // kept alive) is a use of that session, on the device that sent it.
  provider.use(async function noteSessionUse(ctx: Koa.Context & EngineContext, next) {
    await next();
    const session = ctx.oidc?.session;
    if (!session?.uid || !session.accountId || session.destroyed) return;
    const locale: Locale = notices ? localeFor(ctx, notices.config) : 'fr';
    // Noting a use is bookkeeping: its failure never fails the request it follows.
    await sessions.seen({ uid: session.uid, accountId: session.accountId }, { userAgent: ctx.get('User-Agent'), locale }).catch(() => {});
  });

  return sessions;
}

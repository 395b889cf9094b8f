// Who is signed in, as the FedCM requests show it: the FedCM cookie names an engine session by its uid, and
// the session (not the cookie) says which account, and whether anyone still is. Signing out, "sign out
// everywhere", a password change or the account's deletion end the session, and so this answer.
import type Koa from 'koa';
import type { Account } from '../accounts/store.ts';
import { fedcmSessionUid } from '../pages/fedcm-login-status.ts';
import { findSessionByUid } from '../provider/engine.ts';
import type { FedcmDeps } from './fedcm-deps.ts';

export interface ChooserSignIn {
  account: Account;
  sessionUid: string;
  /** When and how the user signed in (the ID token's `auth_time` and `amr`). */
  authTime?: number;
  amr?: string[];
}

export async function chooserSignIn(
  ctx: Koa.Context,
  deps: Pick<FedcmDeps, 'provider'> & { accounts: Pick<FedcmDeps['accounts'], 'details'> },
): Promise<ChooserSignIn | undefined> {
  const uid = fedcmSessionUid(ctx);
  if (!uid) return undefined;
  const session = await findSessionByUid(deps.provider, uid);
  if (!session?.accountId) return undefined;
  const details = await deps.accounts.details(session.accountId);
  // A disabled account signs in nowhere, the account chooser included.
  if (!details || details.disabledAt) return undefined;
  const { disabledAt: _disabled, createdAt: _created, updatedAt: _updated, ...account } = details;
  const amr = (session as { amr?: unknown }).amr;
  return {
    account,
    sessionUid: uid,
    authTime: session.authTime() ?? undefined,
    amr: Array.isArray(amr) ? amr.filter((m): m is string => typeof m === 'string') : undefined,
  };
}

// What an administrator does to an account, and everything each action ends on the way: disabling it
// ends its sessions and its applications' grants, deleting it erases it with everything tied to it.
// The CLI uses these today; the account page's "delete my account" is the same deletion.
import type { RateLimits } from '../accounts/rate-limits.ts';
import { accountLimitKey } from '../accounts/rate-limits.ts';
import type { AccountSessions } from '../accounts/sessions.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { ClientRegistry, RegisteredClient } from '../clients/registry.ts';
import type { ConsentStore } from '../consents/store.ts';
import type { GrantRevocation } from '../grants/revoke.ts';

export interface AccountAdminDeps {
  accounts: Pick<AccountStore, 'setDisabled' | 'delete'>;
  clients: Pick<ClientRegistry, 'list' | 'delete'>;
  consents: Pick<ConsentStore, 'listForAccount'>;
  sessions: AccountSessions;
  grants: Pick<GrantRevocation, 'revokeAccountGrants' | 'revokeClientGrants'>;
  limits: Pick<RateLimits, 'loginPerAccount' | 'mailPerAddress'>;
}

/** What an action ended: how many sessions, and how many applications lost their grant. */
export interface Ended {
  sessions: number;
  grants: number;
}

/** Refuses the sign-in of the account and ends what it had open; false when there is no such account. */
export async function disableAccount(deps: AccountAdminDeps, accountId: string): Promise<Ended | undefined> {
  // Disabled first: a sign-in racing with the rest is then refused, and cannot open a new session.
  if (!(await deps.accounts.setDisabled(accountId, true))) return undefined;
  return endEverything(deps, accountId);
}

/** Lets the account sign in again (nothing that was ended comes back). */
export async function enableAccount(deps: Pick<AccountAdminDeps, 'accounts'>, accountId: string): Promise<boolean> {
  return deps.accounts.setDisabled(accountId, false);
}

/**
 * What to do with the applications the account registered in the developer portal. They serve other
 * users too, so they are not deleted silently: `refuse` stops the deletion and names them, `delete`
 * deletes them (revoking what they were given), `keep` leaves them without an owner (the operator
 * manages them with `signin client`).
 */
export type OwnedApplications = 'refuse' | 'delete' | 'keep';

export class OwnsApplicationsError extends Error {
  override name = 'OwnsApplicationsError';

  constructor(readonly applications: RegisteredClient[]) {
    super(`the account owns ${applications.length} application(s)`);
  }
}

export interface Deleted extends Ended {
  /** The client ids of the applications deleted with the account. */
  applications: string[];
}

/**
 * Erases the account and everything tied to it: sessions, grants and every token under them, consents,
 * e-mail links, session records, rate-limit counters, and (as chosen) its applications. Returns
 * undefined when there is no such account. Throws OwnsApplicationsError for `refuse` when it owns any.
 */
export async function deleteAccount(deps: AccountAdminDeps, accountId: string, owned: OwnedApplications): Promise<Deleted | undefined> {
  const applications = await deps.clients.list(accountId);
  if (applications.length && owned === 'refuse') throw new OwnsApplicationsError(applications);
  // Disabled first, so that nothing new is opened while the rest is ended.
  if (!(await deps.accounts.setDisabled(accountId, true))) return undefined;
  const ended = await endEverything(deps, accountId);
  const deleted: string[] = [];
  if (owned === 'delete') {
    for (const app of applications) {
      if (await deps.clients.delete(app.clientId)) deleted.push(app.clientId);
      await deps.grants.revokeClientGrants(app.clientId);
    }
  }
  // The counters are keyed on the account (hashed): nothing would tie them to it, but they go too.
  await Promise.all([
    deps.limits.loginPerAccount.reset(accountLimitKey(accountId)),
    deps.limits.mailPerAddress.reset(accountLimitKey(accountId)),
  ]);
  // Consents, e-mail links and session records go with the row (foreign keys ON DELETE CASCADE); an
  // application kept loses its owner (ON DELETE SET NULL).
  await deps.accounts.delete(accountId);
  return { ...ended, applications: deleted };
}

async function endEverything(deps: AccountAdminDeps, accountId: string): Promise<Ended> {
  const grants = new Set((await deps.consents.listForAccount(accountId)).map((c) => c.clientId)).size;
  const sessions = await deps.sessions.endAll(accountId);
  await deps.grants.revokeAccountGrants(accountId);
  return { sessions, grants };
}

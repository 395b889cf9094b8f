// Everything the service holds about one person, as JSON: the right of access (GDPR art. 15, Senegal's
// law 2008-12, Côte d'Ivoire's law 2013-450). `signin user export` prints it; the account page offers
// the same document. Built field by field, so that no hash (password, client secret) can slip in.
import type { Queryable } from '../../adapters/sql/database.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { ClientRegistry } from '../clients/registry.ts';
import type { ConsentStore } from '../consents/store.ts';
import { PasskeyStore } from '../passkeys/store.ts';
import { accountView } from './account-view.ts';

export interface AccountExport {
  exported_at: string;
  account: {
    id: string;
    email: string;
    email_verified: boolean;
    username: string;
    first_name: string;
    created_at: string;
    updated_at: string;
    disabled_at: string | null;
  };
  /** What the person agreed to share, with whom. */
  consents: Array<{ client_id: string; application: string | null; scopes: string[]; given_at: string }>;
  /** Browser sessions signed in to the service now. */
  sessions: { active: number };
  /** Applications the person registered in the developer portal (never their secrets). */
  applications: Array<{
    client_id: string;
    name: string;
    description: string;
    app_type: string;
    redirect_uris: string[];
    scopes: string[];
    created_at: string;
    updated_at: string;
  }>;
  /** The account's passkeys: the public key is the only key material the service holds. */
  passkeys: Array<{
    id: string;
    name: string;
    public_key: string;
    device_type: string;
    backed_up: boolean;
    transports: string[];
    created_at: string;
    last_used_at: string | null;
  }>;
}

export interface ExportDeps {
  db: Queryable;
  accounts: Pick<AccountStore, 'details'>;
  clients: Pick<ClientRegistry, 'get' | 'list'>;
  consents: Pick<ConsentStore, 'listForAccount'>;
}

/** The export of the account with this id; undefined when there is none. */
export async function exportAccount(deps: ExportDeps, accountId: string, now = new Date()): Promise<AccountExport | undefined> {
  const account = await deps.accounts.details(accountId);
  if (!account) return undefined;
  const consents = await deps.consents.listForAccount(accountId);
  const names = new Map<string, string | null>();
  for (const clientId of new Set(consents.map((c) => c.clientId))) names.set(clientId, (await deps.clients.get(clientId))?.name ?? null);
  const sessions = await deps.db.query<{ n: number | string }>(
    'SELECT count(*) AS n FROM account_sessions WHERE account_id = $1 AND expires_at > now()',
    [accountId],
  );
  const owned = await deps.clients.list(accountId);
  const passkeys = await new PasskeyStore(deps.db).list(accountId);
  return {
    exported_at: now.toISOString(),
    account: accountView(account),
    consents: consents.map((c) => ({
      client_id: c.clientId,
      // null: the application has since been deleted (its grants were revoked with it).
      application: names.get(c.clientId) ?? null,
      scopes: c.scopes,
      given_at: c.createdAt.toISOString(),
    })),
    sessions: { active: Number(sessions.rows[0]?.n ?? 0) },
    applications: owned.map((app) => ({
      client_id: app.clientId,
      name: app.name,
      description: app.description,
      app_type: app.appType,
      redirect_uris: app.redirectUris,
      scopes: app.scopes,
      created_at: app.createdAt.toISOString(),
      updated_at: app.updatedAt.toISOString(),
    })),
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      public_key: p.publicKey,
      device_type: p.deviceType,
      backed_up: p.backedUp,
      transports: p.transports,
      created_at: p.createdAt.toISOString(),
      last_used_at: p.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

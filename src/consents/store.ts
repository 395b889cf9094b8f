// Consents remembered per user and application, so that a returning user is not asked again in a new
// browser session. Each consent points at the engine Grant that holds the scopes, and lives as long as
// it: recorded with the grant's expiry, extended with it, forgotten when it ends (consent-lifetime.ts
// in src/grants), and swept once expired.
import type { Queryable } from '../../adapters/sql/database.ts';
import { storageKey } from '../../adapters/token-key.ts';

export interface Consent {
  accountId: string;
  clientId: string;
  grantId: string;
  scopes: string[];
  createdAt: Date;
}

interface Row {
  account_id: string;
  client_id: string;
  grant_id: string;
  scopes: string[];
  created_at: Date;
}

/** Not yet expired (a row from before expiries were kept has none). */
const CURRENT = '(expires_at IS NULL OR expires_at > now())';

const toConsent = (r: Row): Consent => ({
  accountId: r.account_id,
  clientId: r.client_id,
  grantId: r.grant_id,
  scopes: r.scopes,
  createdAt: new Date(r.created_at),
});

export class ConsentStore {
  constructor(private readonly db: Queryable) {}

  /** Remembers a consent whose grant was just saved; it expires with that grant. */
  async record(consent: Omit<Consent, 'createdAt'>): Promise<void> {
    // The grant is an engine record in the same database (always SQL): its row holds the expiry. A
    // grant not found (it cannot be, just saved) leaves a consent that the next sweep removes.
    await this.db.query(
      `INSERT INTO consents (account_id, client_id, grant_id, scopes, expires_at) VALUES ($1, $2, $3, $4,
         COALESCE((SELECT expires_at FROM oidc_models WHERE model = 'Grant' AND id_hash = $5), now()))
       ON CONFLICT (account_id, client_id, grant_id) DO UPDATE SET scopes = EXCLUDED.scopes, expires_at = EXCLUDED.expires_at`,
      [consent.accountId, consent.clientId, consent.grantId, JSON.stringify(consent.scopes), storageKey(consent.grantId)],
    );
  }

  /** The grant was saved again for `expiresIn` seconds: its consent lives as long. */
  async follow(grantId: string, expiresIn: number): Promise<void> {
    await this.db.query(`UPDATE consents SET expires_at = now() + make_interval(secs => $2::int) WHERE grant_id = $1`, [
      grantId,
      expiresIn,
    ]);
  }

  /** The newest consent of this user to this application. */
  async latest(accountId: string, clientId: string): Promise<Consent | undefined> {
    const res = await this.db.query<Row>(
      `SELECT * FROM consents WHERE account_id = $1 AND client_id = $2 AND ${CURRENT} ORDER BY created_at DESC LIMIT 1`,
      [accountId, clientId],
    );
    return res.rows[0] && toConsent(res.rows[0]);
  }

  async listForAccount(accountId: string): Promise<Consent[]> {
    const res = await this.db.query<Row>(`SELECT * FROM consents WHERE account_id = $1 AND ${CURRENT} ORDER BY created_at DESC`, [
      accountId,
    ]);
    return res.rows.map(toConsent);
  }

  async listForClient(clientId: string): Promise<Consent[]> {
    const res = await this.db.query<Row>('SELECT * FROM consents WHERE client_id = $1', [clientId]);
    return res.rows.map(toConsent);
  }

  async forget(where: { accountId?: string; clientId?: string; grantId?: string }): Promise<void> {
    await this.db.query(
      `DELETE FROM consents WHERE ($1::text IS NULL OR account_id = $1) AND ($2::text IS NULL OR client_id = $2)
         AND ($3::text IS NULL OR grant_id = $3)`,
      [where.accountId ?? null, where.clientId ?? null, where.grantId ?? null],
    );
  }
}

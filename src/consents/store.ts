// Consents remembered per user and application, so that a returning user is not asked again in a new
// browser session. Each consent points at the engine Grant that holds the scopes.
import type { Queryable } from '../../adapters/sql/database.ts';

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

const toConsent = (r: Row): Consent => ({
  accountId: r.account_id,
  clientId: r.client_id,
  grantId: r.grant_id,
  scopes: r.scopes,
  createdAt: new Date(r.created_at),
});

export class ConsentStore {
  constructor(private readonly db: Queryable) {}

  async record(consent: Omit<Consent, 'createdAt'>): Promise<void> {
    await this.db.query(
      `INSERT INTO consents (account_id, client_id, grant_id, scopes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, client_id, grant_id) DO UPDATE SET scopes = EXCLUDED.scopes`,
      [consent.accountId, consent.clientId, consent.grantId, JSON.stringify(consent.scopes)],
    );
  }

  /** The newest consent of this user to this application. */
  async latest(accountId: string, clientId: string): Promise<Consent | undefined> {
    const res = await this.db.query<Row>(
      'SELECT * FROM consents WHERE account_id = $1 AND client_id = $2 ORDER BY created_at DESC LIMIT 1',
      [accountId, clientId],
    );
    return res.rows[0] && toConsent(res.rows[0]);
  }

  async listForAccount(accountId: string): Promise<Consent[]> {
    const res = await this.db.query<Row>('SELECT * FROM consents WHERE account_id = $1 ORDER BY created_at DESC', [accountId]);
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

// Registered applications in SQL. The client secret is returned once, at creation or rotation, and
// stored only as a hash.
import type { Queryable } from '../../adapters/sql/database.ts';
import { linkValue, NO_LINKS, validateClientLinks, type ClientLinks } from './client-links.ts';
import { fedcmOriginProblems } from './fedcm-origins.ts';
import { hashClientSecret, newClientId, newClientSecret } from './credentials.ts';
import { overlapEnd, type PreviousSecret, type SecretOverlap } from './secret-overlap.ts';
import { ClientValidationError, validateClientInput, type AppType, type ClientInput } from './validate.ts';

export interface RegisteredClient {
  clientId: string;
  secretHash: string;
  name: string;
  description: string;
  appType: AppType;
  redirectUris: string[];
  scopes: string[];
  ownerId: string | null;
  /** An application of the service itself (the portal): consent is not asked, the account page does not list it. */
  firstParty: boolean;
  /** Shown on the consent screen (client-links.ts); the logo only once an operator has verified the application. */
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  /** When an operator confirmed who publishes the application (`signin client verify`); null: not verified. */
  verifiedAt: Date | null;
  /** The secret the last rotation replaced, accepted until its overlap ends (secret-overlap.ts); absent: none. */
  previousSecret?: PreviousSecret | null;
  /** Origins besides those of the redirect URIs that may ask for a FedCM sign-in (fedcm-origins.ts). */
  fedcmOrigins: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** What registering or editing an application takes: the checked fields, and its optional links. */
export type ApplicationInput = ClientInput & Partial<ClientLinks> & { fedcmOrigins?: string[] };

interface Row {
  client_id: string;
  secret_hash: string;
  name: string;
  description: string;
  app_type: AppType;
  redirect_uris: string[];
  scopes: string[];
  owner_id: string | null;
  first_party: boolean;
  logo_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  verified_at: Date | null;
  previous_secret_hash?: string | null;
  previous_secret_expires_at?: Date | null;
  fedcm_origins?: string[];
  created_at: Date;
  updated_at: Date;
}

const toClient = (r: Row): RegisteredClient => ({
  clientId: r.client_id,
  secretHash: r.secret_hash,
  name: r.name,
  description: r.description,
  appType: r.app_type,
  redirectUris: r.redirect_uris,
  scopes: r.scopes,
  ownerId: r.owner_id,
  firstParty: r.first_party === true,
  logoUri: r.logo_uri ?? null,
  policyUri: r.policy_uri ?? null,
  tosUri: r.tos_uri ?? null,
  verifiedAt: r.verified_at ? new Date(r.verified_at) : null,
  previousSecret:
    r.previous_secret_hash && r.previous_secret_expires_at
      ? { hash: r.previous_secret_hash, expiresAt: new Date(r.previous_secret_expires_at) }
      : null,
  fedcmOrigins: r.fedcm_origins ?? [],
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** An application of the service itself, registered by the service at start rather than by an owner. */
export interface FirstPartyClient {
  clientId: string;
  name: string;
  description: string;
  redirectUris: string[];
  scopes: string[];
}

export type ClientChangeListener = (clientId: string) => void | Promise<void>;

export class ClientRegistry {
  private readonly listeners = new Set<ClientChangeListener>();

  constructor(private readonly db: Queryable) {}

  /** Called after a client changes or is deleted (cache invalidation, token revocation). */
  onChange(listener: ClientChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async changed(clientId: string): Promise<void> {
    for (const listener of this.listeners) await listener(clientId);
  }

  async create(input: ApplicationInput & { ownerId?: string | null }): Promise<{ client: RegisteredClient; clientSecret: string }> {
    const errors = [...validateClientInput(input), ...validateClientLinks(input), ...fedcmOriginProblems(input.fedcmOrigins ?? [])];
    if (errors.length) throw new ClientValidationError(errors);
    const clientSecret = newClientSecret();
    const links = { ...NO_LINKS, ...input };
    const res = await this.db.query<Row>(
      `INSERT INTO clients (client_id, secret_hash, name, description, app_type, redirect_uris, scopes, owner_id, logo_uri, policy_uri, tos_uri, fedcm_origins)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
      [
        newClientId(),
        hashClientSecret(clientSecret),
        input.name.trim(),
        input.description.trim(),
        input.appType,
        JSON.stringify(unique(input.redirectUris)),
        JSON.stringify(unique(input.scopes)),
        input.ownerId ?? null,
        linkValue(links.logoUri),
        linkValue(links.policyUri),
        linkValue(links.tosUri),
        JSON.stringify(unique(input.fedcmOrigins ?? [])),
      ],
    );
    // Listeners learn of new applications too (the CORS origins of src/clients/origins.ts).
    await this.changed(res.rows[0].client_id);
    return { client: toClient(res.rows[0]), clientSecret };
  }

  /**
   * Registers (or updates) an application of the service itself, under a client_id the caller derives
   * so that every instance finds the same row. Not validated as an owner's application would be (https
   * required): its redirect URI is the issuer's own address, whatever scheme the operator chose. Its
   * secret is random and never returned: the service redeems its codes in-process, so nobody can
   * authenticate as this client at the token endpoint. A second call keeps the existing secret hash.
   */
  async ensureFirstPartyClient(client: FirstPartyClient): Promise<RegisteredClient> {
    const res = await this.db.query<Row>(
      `INSERT INTO clients (client_id, secret_hash, name, description, app_type, redirect_uris, scopes, owner_id, first_party)
       VALUES ($1, $2, $3, $4, 'web', $5, $6, NULL, true)
       ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description,
         redirect_uris = EXCLUDED.redirect_uris, scopes = EXCLUDED.scopes, first_party = true
       RETURNING *`,
      [
        client.clientId,
        hashClientSecret(newClientSecret()),
        client.name,
        client.description,
        JSON.stringify(unique(client.redirectUris)),
        JSON.stringify(unique(client.scopes)),
      ],
    );
    return toClient(res.rows[0]);
  }

  async get(clientId: string): Promise<RegisteredClient | undefined> {
    const res = await this.db.query<Row>('SELECT * FROM clients WHERE client_id = $1', [clientId]);
    return res.rows[0] && toClient(res.rows[0]);
  }

  /**
   * The application's secret hash when it is no longer `held` (rotated since that copy was read); undefined
   * when it still is, or when the application is gone. Finding nothing changed reads no row: it costs what
   * looking an unknown client_id up costs (src/provider/client-adapter.ts).
   */
  async secretHashOtherThan(clientId: string, held: string): Promise<string | undefined> {
    const res = await this.db.query<{ secret_hash: string }>('SELECT secret_hash FROM clients WHERE client_id = $1 AND secret_hash <> $2', [
      clientId,
      held,
    ]);
    return res.rows[0]?.secret_hash;
  }

  async list(ownerId?: string): Promise<RegisteredClient[]> {
    const res =
      ownerId === undefined
        ? await this.db.query<Row>('SELECT * FROM clients ORDER BY created_at, client_id')
        : await this.db.query<Row>('SELECT * FROM clients WHERE owner_id = $1 ORDER BY created_at, client_id', [ownerId]);
    return res.rows.map(toClient);
  }

  /**
   * Changes what is given. A new name or logo ends the operator's verification: what was verified is
   * who publishes the application under that name and logo, and a verified mark must not carry over to
   * another identity. So does a redirect URI on a host not registered before: the operator checked that
   * the redirect hosts belong to the owner, and a single-page app's remembered consent rests on it
   * (src/consents/remembered-consent.ts). Another path on a host already there keeps it.
   */
  async update(clientId: string, patch: Partial<Omit<ApplicationInput, 'appType'>>): Promise<RegisteredClient | undefined> {
    const current = await this.get(clientId);
    if (!current) return undefined;
    const next = { ...current, ...stripUndefined(patch) };
    const errors = [...validateClientInput(next), ...validateClientLinks(next), ...fedcmOriginProblems(next.fedcmOrigins)];
    if (errors.length) throw new ClientValidationError(errors);
    const logoUri = linkValue(next.logoUri);
    const identityChanged =
      next.name.trim() !== current.name || logoUri !== current.logoUri || hasNewRedirectHost(current.redirectUris, next.redirectUris);
    const res = await this.db.query<Row>(
      `UPDATE clients SET name = $2, description = $3, redirect_uris = $4, scopes = $5, logo_uri = $6, policy_uri = $7,
         tos_uri = $8, verified_at = CASE WHEN $9 THEN NULL ELSE verified_at END, fedcm_origins = $10, updated_at = now()
       WHERE client_id = $1 RETURNING *`,
      [
        clientId,
        next.name.trim(),
        next.description.trim(),
        JSON.stringify(unique(next.redirectUris)),
        JSON.stringify(unique(next.scopes)),
        logoUri,
        linkValue(next.policyUri),
        linkValue(next.tosUri),
        identityChanged,
        JSON.stringify(unique(next.fedcmOrigins)),
      ],
    );
    await this.changed(clientId);
    return res.rows[0] && toClient(res.rows[0]);
  }

  /** Marks the application verified by an operator (now), or no longer verified; undefined for an unknown id. */
  async setVerified(clientId: string, verified: boolean): Promise<RegisteredClient | undefined> {
    const res = await this.db.query<Row>(
      `UPDATE clients SET verified_at = CASE WHEN $2 THEN now() ELSE NULL END, updated_at = now() WHERE client_id = $1 RETURNING *`,
      [clientId, verified],
    );
    if (!res.rows[0]) return undefined;
    await this.changed(clientId);
    return toClient(res.rows[0]);
  }

  /** Replaces the application's extra FedCM origins (checked by fedcm-origins.ts); undefined for an unknown id. */
  async setFedcmOrigins(clientId: string, origins: readonly string[]): Promise<RegisteredClient | undefined> {
    const problems = fedcmOriginProblems(origins);
    if (problems.length) throw new ClientValidationError(problems);
    const res = await this.db.query<Row>(`UPDATE clients SET fedcm_origins = $2, updated_at = now() WHERE client_id = $1 RETURNING *`, [
      clientId,
      JSON.stringify(unique([...origins])),
    ]);
    if (!res.rows[0]) return undefined;
    await this.changed(clientId);
    return toClient(res.rows[0]);
  }

  /**
   * A new secret, shown once. The old one stops working at once, or when the chosen overlap ends (it
   * replaces any overlap still running: only the secret just replaced stays valid).
   */
  async rotateSecret(clientId: string, overlap: SecretOverlap = 'none'): Promise<string | undefined> {
    const clientSecret = newClientSecret();
    const res = await this.db.query(
      `UPDATE clients SET previous_secret_hash = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE secret_hash END,
         previous_secret_expires_at = $3::timestamptz, secret_hash = $2, updated_at = now() WHERE client_id = $1`,
      [clientId, hashClientSecret(clientSecret), overlapEnd(overlap)],
    );
    if (res.rowCount === 0) return undefined;
    await this.changed(clientId);
    return clientSecret;
  }

  /** Deletes the application; listeners revoke what was issued to it. */
  async delete(clientId: string): Promise<boolean> {
    const res = await this.db.query('DELETE FROM clients WHERE client_id = $1', [clientId]);
    if (res.rowCount === 0) return false;
    await this.changed(clientId);
    return true;
  }
}

/** The scheme and host (with its port) of a redirect URI: what the operator checked. */
const redirectHost = (uri: string): string => {
  const url = URL.parse(uri.trim());
  return url ? `${url.protocol}//${url.host}` : uri.trim();
};
const hasNewRedirectHost = (before: readonly string[], after: readonly string[]): boolean => {
  const known = new Set(before.map(redirectHost));
  return after.some((uri) => !known.has(redirectHost(uri)));
};
const unique = (values: string[]): string[] => [...new Set(values.map((v) => v.trim()).filter(Boolean))];
const stripUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
